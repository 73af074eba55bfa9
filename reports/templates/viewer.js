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
  var current = { game: 0, frame: 0 };

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
      line(parent, 'illegal', prefix + ' ' + (index + 1) + ': returned ' + attempt.text + ' (' + attempt.reason + ')');
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
      var time = ply.wallMs === null ? '' : ' in ' + ply.wallMs.toFixed(1) + ' ms';
      line(turnInfo, 'move', who + (ply.label === 'pass' ? ' passed (no legal move).' : ' played ' + ply.label + time + '.'));
      describeAttempts(turnInfo, ply.illegal, 'Illegal answer');
      if (ply.tamper) line(turnInfo, 'illegal', 'Changed the board it was given: ' + ply.tamper);
    }
    if (frame === last) {
      describeAttempts(turnInfo, game.failedAttempts, 'In the final turn, illegal answer');
      line(turnInfo, 'verdict', game.ending);
    }
  }

  function drawChart(game, frame) {
    while (chart.firstChild) chart.removeChild(chart.firstChild);
    var width = Number(chart.getAttribute('width'));
    var height = Number(chart.getAttribute('height'));
    var plies = game.plies;
    if (plies.length === 0) return;
    var top = 0;
    plies.forEach(function (ply) { if (ply.wallMs !== null && ply.wallMs > top) top = ply.wallMs; });
    top = Math.max(top, game.timeLimitMs * 0.05, 1);
    var scale = top >= game.timeLimitMs ? game.timeLimitMs * 1.05 : top * 1.1;
    var barWidth = width / plies.length;
    plies.forEach(function (ply, index) {
      var rect = document.createElementNS(SVG_NS, 'rect');
      var h = ply.wallMs === null ? 0 : Math.max(1, (Math.min(ply.wallMs, scale) / scale) * (height - 4));
      rect.setAttribute('x', String(index * barWidth));
      rect.setAttribute('y', String(height - h));
      rect.setAttribute('width', String(Math.max(1, barWidth - 1)));
      rect.setAttribute('height', String(h));
      rect.setAttribute('fill', index === frame - 1 ? '#e53935' : ply.side === game.studentSide ? '#1565c0' : '#bdbdbd');
      var title = document.createElementNS(SVG_NS, 'title');
      title.textContent = 'ply ' + ply.ply + ': ' + ply.label + (ply.wallMs === null ? '' : ', ' + ply.wallMs.toFixed(1) + ' ms');
      rect.appendChild(title);
      chart.appendChild(rect);
    });
    if (scale >= game.timeLimitMs) {
      var limit = document.createElementNS(SVG_NS, 'line');
      var y = String(height - (game.timeLimitMs / scale) * (height - 4));
      limit.setAttribute('x1', '0'); limit.setAttribute('x2', String(width));
      limit.setAttribute('y1', y); limit.setAttribute('y2', y);
      limit.setAttribute('stroke', '#c62828'); limit.setAttribute('stroke-dasharray', '4 3');
      chart.appendChild(limit);
    }
  }

  function show(gameIndex, frame) {
    var game = games[gameIndex];
    var last = game.frames.length - 1;
    frame = Math.max(0, Math.min(last, frame));
    current = { game: gameIndex, frame: frame };
    board.innerHTML = frameSvg(game, frame);
    slider.max = String(last);
    slider.value = String(frame);
    select.value = String(gameIndex);
    plyLabel.textContent = game.title + ' — ply ' + frame + ' of ' + last;
    board.setAttribute('data-frame', String(frame));
    drawInfo(game, frame);
    drawChart(game, frame);
  }

  function step(delta) { show(current.game, current.frame + delta); }

  document.getElementById('first').addEventListener('click', function () { show(current.game, 0); });
  document.getElementById('prev').addEventListener('click', function () { step(-1); });
  document.getElementById('next').addEventListener('click', function () { step(1); });
  document.getElementById('last').addEventListener('click', function () { show(current.game, Infinity); });
  slider.addEventListener('input', function () { show(current.game, Number(slider.value)); });
  select.addEventListener('change', function () { show(Number(select.value), 0); });
  document.addEventListener('keydown', function (event) {
    var target = event.target;
    if (target === slider || target === select || (target && /^(INPUT|TEXTAREA)$/.test(target.tagName))) return;
    var moves = { ArrowLeft: -1, ArrowRight: 1 };
    if (event.key in moves) { step(moves[event.key]); event.preventDefault(); }
    else if (event.key === 'Home') { show(current.game, 0); event.preventDefault(); }
    else if (event.key === 'End') { show(current.game, Infinity); event.preventDefault(); }
  });
  Array.prototype.forEach.call(document.querySelectorAll('button.replay'), function (button) {
    button.addEventListener('click', function () {
      show(Number(button.getAttribute('data-game')), 0);
      document.getElementById('viewer').scrollIntoView();
    });
  });
  show(0, 0);
})();
