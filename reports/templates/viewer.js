// The report's replay viewer. Reads the JSON data block, redraws the board from interned SVG elements, and shows
// what happened at each ply. Student-controlled text only ever goes through textContent.
(function () {
  'use strict';
  var dataElement = document.getElementById('report-data');
  if (!dataElement) return;
  var data = JSON.parse(dataElement.textContent);
  var games = data.games;
  if (!games || games.length === 0) return;
  var SVG_NS = 'http://www.w3.org/2000/svg';

  var board = document.getElementById('board');
  var slider = document.getElementById('slider');
  var select = document.getElementById('game-select');
  var plyLabel = document.getElementById('ply-label');
  var turnInfo = document.getElementById('turn-info');
  var chart = document.getElementById('time-chart');
  var counts = document.getElementById('counts');
  var plyOutput = document.getElementById('ply-output');
  var playButton = document.getElementById('play');
  var speed = document.getElementById('speed');
  var permalink = document.getElementById('permalink');
  var current = { game: 0, frame: 0 };
  var timer = null;
  var linked = false;

  function frameSvg(game, frame) {
    return game.frames[frame].map(function (id) { return data.tokens[id]; }).join('');
  }

  function line(parent, className, text) {
    var element = document.createElement('div');
    if (className) element.className = className;
    element.textContent = text;
    parent.appendChild(element);
    return element;
  }

  function describeAttempts(parent, attempts, prefix) {
    attempts.forEach(function (attempt, index) {
      line(parent, 'illegal', prefix + ' ' + (index + 1) + ': returned ' + attempt.text + ' — ' + attempt.reason);
    });
  }

  function drawInfo(game, frame) {
    turnInfo.textContent = '';
    var last = game.frames.length - 1;
    if (frame === 0) {
      line(turnInfo, '', 'Start position. ' + data.sideNames[0] + ': ' + game.players[0] + ' · ' + data.sideNames[1] + ': ' + game.players[1]);
    } else {
      var ply = game.plies[frame - 1];
      var who = data.sideNames[ply.side] + ' (' + game.players[ply.side] + (ply.side === game.studentSide ? ', the submission' : '') + ')';
      var time = ply.wallMs === null ? '' : ' in ' + ply.wallMs.toFixed(1) + ' ms' + (ply.cpuWaitMs ? ' (' + ply.cpuWaitMs.toFixed(1) + ' ms of them waiting for a CPU on a busy grader, not counted)' : '');
      line(turnInfo, 'move', who + (ply.label === 'pass' ? ' passed (no legal move).' : ' played ' + ply.label + time + '.'));
      describeAttempts(turnInfo, ply.illegal, 'Illegal answer');
      if (ply.tamper) line(turnInfo, 'illegal', 'Changed the board it was given: ' + ply.tamper);
      if (ply.limitMs !== null) line(turnInfo, 'limit', 'Its limit for this move: ' + ply.limitMs + ' ms.');
      if (ply.strikes !== null) line(turnInfo, 'strike', 'Over the limit, played anyway: strike ' + ply.strikes + '.');
      if (ply.bankLeftMs !== null) line(turnInfo, 'bank', 'Time bank left: ' + ply.bankLeftMs.toFixed(0) + ' ms.');
    }
    var printed = frame > 0 ? game.plies[frame - 1].output : null;
    if (frame === last) {
      describeAttempts(turnInfo, game.failedAttempts, 'In the final turn, illegal answer');
      line(turnInfo, 'verdict', game.ending);
      if (game.fatal) {
        line(turnInfo, 'fatal', 'The failing move: ' + game.fatal.verdict + ' after ' + game.fatal.wallMs.toFixed(1) + ' ms (limit ' + game.timeLimitMs + ' ms).');
        if (game.fatal.stack) { var stack = document.createElement('pre'); stack.className = 'stack-text'; stack.textContent = game.fatal.stack; turnInfo.appendChild(stack); }
        if (game.fatal.output) printed = (printed ? printed : '') + game.fatal.output;
      }
    }
    plyOutput.hidden = !printed;
    plyOutput.textContent = printed ? 'Printed: ' + printed : '';
    var count = game.counts[frame];
    counts.textContent = count ? data.sideNames[0] + ': ' + count[0] + ' · ' + data.sideNames[1] + ': ' + count[1] : '';
    if (count) { counts.setAttribute('data-first', String(count[0])); counts.setAttribute('data-second', String(count[1])); }
  }

  function svgElement(name, attributes) {
    var element = document.createElementNS(SVG_NS, name);
    Object.keys(attributes).forEach(function (key) { element.setAttribute(key, String(attributes[key])); });
    return element;
  }

  // One bar per ply, then the failing ask of a forced loss (drawn to its wall time, past the limit for a
  // timeout). The scale is logarithmic with a grid line per decade: moves of a few milliseconds and a limit of
  // seconds both read (a linear scale made them 1-px bars). The dashed line is the limit, always drawn: the
  // headroom is the lesson; a red tick marks a move's own limit where it differs (first turn, language factor).
  function msText(value) {
    if (value >= 1000) return (value / 1000 >= 10 ? Math.round(value / 1000) : Number((value / 1000).toFixed(1))) + ' s';
    return (value >= 1 ? Math.round(value) : Number(value.toPrecision(1))) + ' ms';
  }
  function drawChart(game, frame) {
    while (chart.firstChild) chart.removeChild(chart.firstChild);
    var width = Number(chart.getAttribute('width'));
    var height = Number(chart.getAttribute('height'));
    var left = 46, right = 6, top = 8, bottom = 20;
    var plotWidth = width - left - right;
    var plotHeight = height - top - bottom;
    var bars = game.plies.map(function (ply, index) { return { ply: ply.ply, side: ply.side, label: ply.label, wallMs: ply.wallMs, index: index, limitMs: ply.limitMs, strikes: ply.strikes, bankLeftMs: ply.bankLeftMs, cpuWaitMs: ply.cpuWaitMs }; });
    // A timeout used all the time it had (the turn's limit can end an ask a hair before the per-ask line): its bar
    // reaches past the line; the true time is in its label and under the board.
    var fatalMs = game.fatal && game.fatal.verdict === 'timeout' ? Math.max(game.fatal.wallMs, game.timeLimitMs * 1.1) : game.fatal && game.fatal.wallMs;
    if (game.fatal) bars.push({ ply: game.plies.length + 1, side: game.fatal.side, label: game.fatal.verdict, wallMs: fatalMs, realMs: game.fatal.wallMs, fatal: true });
    if (bars.length === 0) return;
    var high = game.timeLimitMs, low = game.timeLimitMs;
    bars.forEach(function (bar) {
      if (bar.wallMs !== null && bar.wallMs > high) high = bar.wallMs;
      if (bar.wallMs !== null && bar.wallMs > 0 && bar.wallMs < low) low = bar.wallMs;
      if (bar.limitMs && bar.limitMs > high) high = bar.limitMs;
    });
    var lowExp = Math.floor(Math.log10(Math.max(0.01, low)));
    var highExp = Math.max(lowExp + 1, Math.ceil(Math.log10(high * 1.05)));
    function yOf(value) {
      var exp = Math.log10(Math.max(value, Math.pow(10, lowExp)));
      return top + plotHeight - ((exp - lowExp) / (highExp - lowExp)) * plotHeight;
    }
    // Axis: a grid line and a label per decade, the axis line, and ply numbers under the first, middle and last bar.
    for (var exp = lowExp; exp <= highExp; exp++) {
      var gy = yOf(Math.pow(10, exp));
      chart.appendChild(svgElement('line', { x1: left, x2: width - right, y1: gy, y2: gy, stroke: '#e5e5e5', 'class': 'grid' }));
      var tick = svgElement('text', { x: left - 4, y: gy + 3.5, 'text-anchor': 'end', 'font-size': 11, fill: '#555', 'class': 'axis-label' });
      tick.textContent = msText(Math.pow(10, exp));
      chart.appendChild(tick);
    }
    chart.appendChild(svgElement('line', { x1: left, x2: left, y1: top, y2: top + plotHeight, stroke: '#999', 'class': 'axis' }));
    chart.appendChild(svgElement('line', { x1: left, x2: width - right, y1: top + plotHeight, y2: top + plotHeight, stroke: '#999', 'class': 'axis' }));
    var barWidth = plotWidth / bars.length;
    [0, Math.floor((bars.length - 1) / 2), bars.length - 1].forEach(function (index, position, all) {
      if (position > 0 && index === all[position - 1]) return;
      var plyText = svgElement('text', { x: left + (index + 0.5) * barWidth, y: height - 5, 'text-anchor': 'middle', 'font-size': 11, fill: '#555', 'class': 'ply-label' });
      plyText.textContent = (position === 0 ? 'ply ' : '') + bars[index].ply;
      chart.appendChild(plyText);
    });
    bars.forEach(function (bar, index) {
      var y = bar.wallMs === null ? top + plotHeight : Math.min(top + plotHeight - 2, yOf(bar.wallMs));
      var h = top + plotHeight - y;
      var classes = ['bar', bar.side === game.studentSide ? 'you' : 'them'];
      if (bar.fatal) classes.push('fatal');
      if (bar.strikes) classes.push('struck');
      if (!bar.fatal && index === frame - 1) classes.push('current');
      var fill = bar.fatal ? '#e53935' : index === frame - 1 ? '#ff9800' : bar.strikes ? '#8e24aa' : bar.side === game.studentSide ? '#1565c0' : '#bdbdbd';
      var x = left + index * barWidth;
      var rect = svgElement('rect', { x: x, y: y, width: Math.max(1, barWidth - (barWidth > 3 ? 1 : 0)), height: h, fill: fill, 'class': classes.join(' '), 'data-ply': bar.ply });
      var title = document.createElementNS(SVG_NS, 'title');
      var ms = bar.realMs !== undefined ? bar.realMs : bar.wallMs;
      title.textContent = 'ply ' + bar.ply + ': ' + bar.label + (ms === null ? '' : ', ' + ms.toFixed(1) + ' ms') +
        (bar.limitMs ? ' (limit ' + bar.limitMs + ' ms)' : '') + (bar.strikes ? ', strike ' + bar.strikes : '') +
        (bar.bankLeftMs !== null && bar.bankLeftMs !== undefined ? ', bank left ' + bar.bankLeftMs.toFixed(0) + ' ms' : '') +
        (bar.cpuWaitMs ? ', ' + bar.cpuWaitMs.toFixed(1) + ' ms of it waiting for a CPU (not counted)' : '');
      rect.appendChild(title);
      if (bar.limitMs) {
        var tickY = yOf(bar.limitMs);
        chart.appendChild(svgElement('line', { x1: x, x2: x + Math.max(1, barWidth - 1), y1: tickY, y2: tickY, stroke: '#c62828', 'stroke-width': 2, 'class': 'own-limit', 'data-ply': bar.ply }));
      }
      rect.addEventListener('click', function () { show(current.game, bar.fatal ? Infinity : bar.index + 1); });
      chart.appendChild(rect);
      // The wait a busy grader credited: the bar's top, from the player's own time up to the wall time, drawn pale.
      if (bar.cpuWaitMs && bar.wallMs !== null && !bar.fatal) {
        var ownY = Math.min(top + plotHeight - 2, yOf(Math.max(0.01, bar.wallMs - bar.cpuWaitMs)));
        var wait = svgElement('rect', { x: x, y: y, width: Math.max(1, barWidth - (barWidth > 3 ? 1 : 0)), height: Math.max(0, ownY - y), fill: '#ffffff', 'fill-opacity': 0.55, 'class': 'cpu-wait', 'data-ply': bar.ply, 'data-cpu-wait-ms': bar.cpuWaitMs.toFixed(1), 'pointer-events': 'none' });
        chart.appendChild(wait);
      }
    });
    var limitY = yOf(game.timeLimitMs);
    chart.appendChild(svgElement('line', { id: 'limit-line', x1: left, x2: width - right, y1: limitY, y2: limitY, stroke: '#c62828', 'stroke-dasharray': '4 3', 'data-limit-ms': game.timeLimitMs }));
    var label = svgElement('text', { x: width - right - 2, y: Math.max(top + 10, limitY - 3), 'text-anchor': 'end', 'font-size': 11, fill: '#c62828', 'class': 'limit-label' });
    label.textContent = 'limit ' + msText(game.timeLimitMs);
    chart.appendChild(label);
  }

  function show(gameIndex, frame) {
    var game = games[gameIndex];
    var last = game.frames.length - 1;
    frame = Math.max(0, Math.min(last, frame));
    current = { game: gameIndex, frame: frame };
    board.innerHTML = frameSvg(game, frame);
    // The winning line of a game won on the board, ringed on its last position (cells from the game's geometry).
    var svg = board.querySelector('svg');
    if (svg && frame === last && game.highlight) {
      game.highlight.forEach(function (cell) {
        svg.appendChild(svgElement('circle', { cx: cell.x, cy: cell.y, r: cell.r * 1.12, fill: 'none', stroke: '#16a34a', 'stroke-width': 3, 'class': 'win-line' }));
      });
    }
    slider.max = String(last);
    slider.value = String(frame);
    select.value = String(gameIndex);
    plyLabel.textContent = game.title + ' — ply ' + frame + ' of ' + last;
    board.setAttribute('data-frame', String(frame));
    drawInfo(game, frame);
    drawChart(game, frame);
    var hash = '#game=' + (gameIndex + 1) + '&ply=' + frame;
    permalink.textContent = hash;
    permalink.setAttribute('href', hash);
    // The address follows the viewer once the reader has used it (a fresh page keeps its plain address).
    if (linked && location.hash !== hash && history.replaceState) history.replaceState(null, '', hash);
    if (timer !== null && frame === last) stop();
  }

  // Autoplay: one ply per second at 1×; stops at the end of the game or on any step by hand.
  function stop() {
    if (timer !== null) clearInterval(timer);
    timer = null;
    playButton.textContent = 'Play';
    playButton.setAttribute('aria-pressed', 'false');
  }
  function play() {
    linked = true;
    stop();
    var game = games[current.game];
    if (current.frame >= game.frames.length - 1) show(current.game, 0);
    timer = setInterval(function () { step(1); }, 1000 / Number(speed.value));
    playButton.textContent = 'Pause';
    playButton.setAttribute('aria-pressed', 'true');
  }
  playButton.addEventListener('click', function () { if (timer === null) play(); else stop(); });
  speed.addEventListener('change', function () { if (timer !== null) play(); });

  // Deep links: report.html#game=3&ply=41 (game counted from 1 in the report's order; ply 0 is the start).
  function fromHash() {
    var match = /game=(\d+)/.exec(location.hash);
    if (!match) return false;
    linked = true;
    var gameIndex = Math.max(0, Math.min(games.length - 1, Number(match[1]) - 1));
    var ply = /ply=(\d+)/.exec(location.hash);
    show(gameIndex, ply ? Number(ply[1]) : 0);
    return true;
  }
  window.addEventListener('hashchange', function () {
    if (fromHash()) document.getElementById('viewer').scrollIntoView();
  });

  function step(delta) { show(current.game, current.frame + delta); }
  function byHand(action) { return function () { linked = true; stop(); action(); }; }

  document.getElementById('first').addEventListener('click', byHand(function () { show(current.game, 0); }));
  document.getElementById('prev').addEventListener('click', byHand(function () { step(-1); }));
  document.getElementById('next').addEventListener('click', byHand(function () { step(1); }));
  document.getElementById('last').addEventListener('click', byHand(function () { show(current.game, Infinity); }));
  slider.addEventListener('input', byHand(function () { show(current.game, Number(slider.value)); }));
  select.addEventListener('change', byHand(function () { show(Number(select.value), 0); }));
  document.addEventListener('keydown', function (event) {
    var target = event.target;
    if (target === slider || target === select || (target && /^(INPUT|TEXTAREA)$/.test(target.tagName))) return;
    var moves = { ArrowLeft: -1, ArrowRight: 1 };
    if (event.key in moves) { stop(); step(moves[event.key]); event.preventDefault(); }
    else if (event.key === ' ' && !(target && /^(BUTTON|A|SUMMARY)$/.test(target.tagName))) { if (timer === null) play(); else stop(); event.preventDefault(); }
    else if (event.key === 'Home') { show(current.game, 0); event.preventDefault(); }
    else if (event.key === 'End') { show(current.game, Infinity); event.preventDefault(); }
  });
  // Replay and ply links are plain #game=…&ply=… links: the hashchange above shows them (also when the hash
  // is already the same, a click shows the position again).
  Array.prototype.forEach.call(document.querySelectorAll('a[href^="#game="]'), function (link) {
    link.addEventListener('click', function () {
      if (link.getAttribute('href') === location.hash) { stop(); fromHash(); document.getElementById('viewer').scrollIntoView(); }
    });
  });
  // Replay buttons carrying a game index (tournament.html's crosstable cells and games table) show that game.
  Array.prototype.forEach.call(document.querySelectorAll('button.replay[data-game]'), function (button) {
    button.addEventListener('click', byHand(function () {
      show(Number(button.getAttribute('data-game')), 0);
      document.getElementById('viewer').scrollIntoView();
    }));
  });
  if (!fromHash()) show(0, 0);
  else document.getElementById('viewer').scrollIntoView();
})();
