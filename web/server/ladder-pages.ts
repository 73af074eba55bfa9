/**
 * The ladder's pages, rendered on the server with handlebars (every value escaped; student text never reaches the
 * page as markup): the leaderboard, a student's page, the upload page, the instructor's page, and a game's replay
 * (the grade report's own viewer and styles). /ladder.js (web/client/ladder.ts) adds the buttons' actions and
 * keeps the leaderboard fresh. A rating is never shown without its interval.
 */
import Handlebars from 'handlebars';
import { readFileSync } from 'node:fs';
import { packageFile } from '../../grading/package-root.js';
import { count, dateTime } from '../../grading/words.js';
import { scriptSafeJson } from '../../reports/safe-json.js';

const hb = Handlebars.create();
const whole = (x: unknown): string => String(Math.round(Number(x)) || 0);
hb.registerHelper('elo', whole);
hb.registerHelper('interval', (low: unknown, high: unknown) => `${whole(low)} … ${whole(high)}`);
hb.registerHelper('pm', (low: unknown, high: unknown) => `±${whole((Number(high) - Number(low)) / 2)}`);
hb.registerHelper('pct', (x: unknown) => (x === null || x === undefined ? '' : `${(100 * Number(x)).toFixed(1)}%`));
hb.registerHelper('eq', (a: unknown, b: unknown) => a === b);
hb.registerHelper('json', (value: unknown) => new hb.SafeString(scriptSafeJson(value)));
hb.registerHelper('jsonText', (value: unknown) => JSON.stringify(value));
hb.registerHelper('enc', (value: unknown) => encodeURIComponent(String(value ?? '')));
hb.registerHelper('count', (n: unknown, noun: unknown) => count(Number(n), String(noun)));
hb.registerHelper('dateTime', (at: unknown) => dateTime(String(at ?? '')));
hb.registerHelper('score', (blackScore: number) => (blackScore === 1 ? '1–0' : blackScore === 0 ? '0–1' : '½–½'));

const STYLE = `
body{font:15px/1.45 system-ui,sans-serif;margin:0;color:#1d2330;background:#f6f7f9}
header{background:#1d2330;color:#fff;padding:.7rem 1.2rem;display:flex;gap:1.2rem;align-items:baseline;flex-wrap:wrap}
header a{color:#cfe0ff} main{max-width:1100px;margin:1rem auto;padding:0 1rem}
table{border-collapse:collapse;width:100%;background:#fff} th,td{padding:.35rem .5rem;border-bottom:1px solid #e3e6eb;text-align:left}
th{background:#eef1f5;font-weight:600} td.num{text-align:right;font-variant-numeric:tabular-nums}
.card{background:#fff;border:1px solid #e3e6eb;border-radius:6px;padding:.8rem 1rem;margin:1rem 0}
.muted{color:#667085} .small{font-size:.85em} .ref{color:#667085;font-style:italic}
.status-valid{color:#067647} .status-failed,.status-invalid,.status-grader-error{color:#b42318} .status-checking,.status-validating,.status-received{color:#b54708}
.phase{padding:.1rem .5rem;border-radius:4px;background:#fef0c7;color:#7a2e0e} button{font:inherit;padding:.3rem .8rem;margin:.2rem}
.bar{position:relative;height:10px;background:#eef1f5;min-width:120px} .bar span{position:absolute;top:0;bottom:0;background:#84adff} .bar i{position:absolute;top:-2px;bottom:-2px;width:2px;background:#1d2330}
#message{min-height:1.4em} pre{white-space:pre-wrap}`;

const LAYOUT = `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<title>{{pageTitle}} — {{title}}</title><style>${STYLE}</style>{{#if extraCss}}<style>{{{extraCss}}}</style>{{/if}}</head>
<body data-page="{{page}}"{{#if token}} data-token="{{token}}"{{/if}}><header><strong>{{title}}</strong><span>{{pageTitle}}</span>
<a href="/">Leaderboard</a>{{#if token}}<a href="/me?token={{enc token}}">My page</a><a href="/upload?token={{enc token}}">Submit</a>{{/if}}
{{#if phase}}<span class="phase" id="phase">{{phase}}</span>{{/if}}</header><main>{{{body}}}</main><script src="/ladder.js"></script></body></html>`;

const TABLE = `<table id="leaderboard"><thead><tr><th>#</th><th>Player</th>{{#if instructor}}<th>Student</th>{{/if}}<th>Version</th><th>Games</th><th>Rating</th><th>95% interval</th><th></th><th>LOS next</th></tr></thead><tbody>
{{#each table.rows}}<tr data-player="{{player}}" class="{{kind}}"><td class="num">{{rank}}</td><td{{#if (eq kind "reference")}} class="ref"{{/if}}>{{pseudonym}}</td>{{#if ../instructor}}<td>{{student}}</td>{{/if}}
<td>{{#if version}}v{{version}} {{language}}{{else}}reference AI{{/if}}</td><td class="num">{{games}}</td><td class="num rating">{{elo elo}}</td><td class="num interval">{{interval low high}}</td>
<td><div class="bar" data-low="{{low}}" data-high="{{high}}" data-elo="{{elo}}"></div></td><td class="num">{{pct losNext}}</td></tr>{{/each}}
</tbody></table>
{{#if table.unrated.length}}<p class="muted">Waiting for a first game against the reference ladder: {{#each table.unrated}}{{pseudonym}} (v{{version}}){{#unless @last}}, {{/unless}}{{/each}}.</p>{{/if}}
<p class="muted small">{{count table.games "counted game"}}. Ratings: {{table.model}}.</p>`;

const PAGES = {
  leaderboard: `<h1>Leaderboard</h1>{{#if instructor}}<p><a href="/instructor?token={{enc token}}">Instructor page</a></p>{{/if}}<div id="table-holder">${TABLE}</div>`,
  student: `<h1>{{me.pseudonym}}</h1>
<div class="card" id="standing">{{#if me.row}}<p>Active version v{{me.row.version}}: rank <b>{{me.row.rank}}</b>, rating <b class="rating">{{elo me.row.elo}}</b> <span class="interval">(95% interval {{interval me.row.low me.row.high}}, {{pm me.row.low me.row.high}})</span> after {{count me.row.games "counted game"}}.</p>
{{else}}<p>No rated version yet. <a href="/upload?token={{enc token}}">Submit one</a>.</p>{{/if}}
{{#if me.history.length}}<h3>Rating over time</h3><svg id="history" width="640" height="160" role="img" aria-label="Rating over time" data-history="{{jsonText me.history}}"></svg>{{/if}}</div>
<div class="card"><h2>Practice</h2><p class="muted small">Practice games against the reference ladder never count.</p>{{#each me.references}}<button type="button" class="practice" data-opponent="{{this}}">vs {{this}}</button>{{/each}}<p id="message"></p></div>
<h2>Versions</h2><table id="versions"><thead><tr><th>Version</th><th>Status</th><th>Submitted</th><th>Language</th><th>What happened</th></tr></thead><tbody>
{{#each me.versions}}<tr data-version="{{id}}"><td>v{{id}}{{#if active}} <b>(active)</b>{{/if}}{{#unless counts}} <span class="muted">(after the freeze: practice only)</span>{{/unless}}</td><td class="status-{{status}}">{{status}}</td><td class="small"><time datetime="{{submittedAt}}">{{dateTime submittedAt}}</time></td><td>{{language}}</td>
<td>{{message}}{{#if checkReport}}<details><summary>check report</summary><ul>{{#each checkReport.items}}<li>{{status}} — {{title}}{{#if detail}}: <pre>{{detail}}</pre>{{/if}}{{#if fix}} <i>{{fix}}</i>{{/if}}</li>{{/each}}</ul></details>{{/if}}</td></tr>{{/each}}
</tbody></table>
<h2>Games</h2><table id="games"><thead><tr><th>#</th><th>Kind</th><th>Black</th><th>White</th><th>Result</th><th>End</th></tr></thead><tbody>
{{#each me.games}}<tr><td><a href="/game/{{id}}?token={{enc ../token}}">#{{id}}</a></td><td>{{kind}}</td><td>{{black}}</td><td>{{white}}</td><td>{{score blackScore}}</td><td>{{reason}}</td></tr>{{/each}}
</tbody></table>`,
  upload: `<h1>Submit</h1><div class="card"><form id="upload"><p>Your submission as a <b>.zip</b> of its folder, or a single source file (AIPlayer.ts, AIPlayer.py, Strategy.cpp). At most {{maxMb}} MB.</p>
<input type="file" id="file" name="file" accept=".zip,.ts,.js,.py,.cpp,.cc" required> <button type="submit">Submit</button></form><p id="message"></p>
<p class="muted small">From a terminal: <code>npx referee ladder submit src/ --url URL --token YOUR_TOKEN</code></p></div>`,
  instructor: `<h1>Instructor</h1><div class="card"><p>Phase: <b id="phase-now">{{phase}}</b>. Quota: {{settings.quota.perDay}} a day, one every {{settings.quota.cooldownSeconds}} s. Reference ladder: {{#each settings.references}}{{this}}{{#unless @last}} → {{/unless}}{{/each}}.</p>
<button type="button" id="freeze">Freeze</button> <button type="button" id="final">Run the final</button>
{{#if hasFinal}} Export: <a href="/api/instructor/export?format=csv&token={{enc token}}">CSV</a> · <a href="/api/instructor/export?format=gradescope&token={{enc token}}">Gradescope</a> · <a href="/api/instructor/export?format=classroom&token={{enc token}}">Classroom</a>{{/if}}<p id="message"></p></div>
<p class="muted small">Live games: <code>referee serve --watch {{dataDir}}</code> on this machine shows the games in play, move by move.</p>
<h2>Roster</h2><table id="roster"><thead><tr><th>Student</th><th>Name</th><th>Pseudonym</th><th>Versions</th><th>Today / quota</th><th>Last</th><th>Active</th></tr></thead><tbody>
{{#each roster}}<tr><td>{{student}}</td><td>{{name}}</td><td>{{pseudonym}}</td><td class="num">{{versions}}</td><td class="num">{{submissionsToday}} / {{quota}}</td><td>{{#if last}}v{{last.id}} <span class="status-{{last.status}}">{{last.status}}</span> <span class="small">{{last.message}}</span>{{/if}}</td>
<td>{{#if active}}v{{active.version}}: #{{active.rank}}, {{elo active.elo}} ({{interval active.low active.high}}), {{count active.games "game"}}{{/if}}</td></tr>{{/each}}</tbody></table>
<h2>Leaderboard</h2>${TABLE.replace(/\.\.\/instructor/g, 'true').replace('{{#if instructor}}<th>Student</th>{{/if}}', '<th>Student</th>')}`,
  game: `<h1>Game #{{game.id}} <span class="muted small">({{game.kind}}, {{result}})</span></h1>
<section id="viewer" class="card"><select id="game-select" hidden><option value="0">game</option></select>
<div class="viewer"><div id="board" class="board" aria-live="polite"></div><div class="side-panel"><div class="controls">
<button type="button" id="first">|◀</button><button type="button" id="prev">◀</button><button type="button" id="next">▶</button><button type="button" id="last">▶|</button>
<button type="button" id="play" aria-pressed="false">Play</button><label class="small">speed <select id="speed"><option value="1" selected>1×</option><option value="4">4×</option></select></label></div>
<input type="range" id="slider" min="0" max="0" value="0" aria-label="Ply"><p id="ply-label"></p><p id="counts" class="small"></p><div id="turn-info"></div><pre id="ply-output" class="student-output" hidden></pre>
<svg id="time-chart" width="320" height="100" role="img" aria-label="Time per move"></svg><a id="permalink" href="#" hidden>#</a></div></div></section>
<script type="application/json" id="report-data">{{json dataJson}}</script><script src="/replay-viewer.js"></script>`,
} as const;

export type LadderPageName = keyof typeof PAGES;

const TITLES: Record<LadderPageName, string> = { leaderboard: 'Leaderboard', student: 'My page', upload: 'Submit', instructor: 'Instructor', game: 'Replay' };

const compiled = new Map<LadderPageName, HandlebarsTemplateDelegate>();
const layout = hb.compile(LAYOUT);
let reportCss: string | null = null;

/** The grade report's replay viewer script, served as /replay-viewer.js for the game page. */
export const replayViewerScript = (): string => readFileSync(packageFile('reports', 'templates', 'viewer.js'), 'utf8');

export function renderLadderPage(name: LadderPageName, data: Record<string, unknown>): string {
  let template = compiled.get(name);
  if (!template) compiled.set(name, (template = hb.compile(PAGES[name])));
  if (name === 'game') reportCss ??= readFileSync(packageFile('reports', 'templates', 'report.css'), 'utf8');
  return layout({ ...data, page: name, pageTitle: TITLES[name], body: template(data), extraCss: name === 'game' ? reportCss : null });
}
