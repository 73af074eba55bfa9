/**
 * The class index page: a handlebars template with its CSS and sorting script. Kept in a module rather than in
 * files beside it so the page renders wherever the code runs (npm pack ships dist/ whatever `files` lists).
 */

export const CLASS_CSS = `
body { font: 14px/1.45 system-ui, sans-serif; margin: 2em auto; max-width: 96em; padding: 0 1em; color: #222; }
/* A class with many rubric items is wider than any screen: its table scrolls inside the page, never the page. */
.scroll { overflow-x: auto; max-width: 100%; }
h1 { font-size: 1.5em; margin-bottom: .2em; } h2 { font-size: 1.15em; margin-top: 2em; }
.meta { color: #666; }
.badge { font-size: .8em; padding: 2px 8px; border-radius: 10px; color: #fff; }
.badge.hardened { background: #2e7d32; } .badge.not-isolated { background: #c62828; } p.not-isolated { color: #c62828; }
table { border-collapse: collapse; width: 100%; }
th, td { padding: .3em .6em; border-bottom: 1px solid #ddd; text-align: right; white-space: nowrap; }
th:first-child, td:first-child, th.text, td.text { text-align: left; }
th[data-sort] { cursor: pointer; user-select: none; }
th[data-sort]:focus-visible { outline: 2px solid #4a7ebb; outline-offset: -2px; }
.twin { background: #fde7c2; }
th[data-sort]::after { content: " ⇅"; color: #aaa; }
th[aria-sort="ascending"]::after { content: " ▲"; color: #222; }
th[aria-sort="descending"]::after { content: " ▼"; color: #222; }
tr.failed td { color: #a33; }
td.reason, td.verdicts { white-space: normal; text-align: left; }
td.verdicts { min-width: 12em; }
.bar { fill: #4a7ebb; } .axis { stroke: #888; } svg text { font: 11px system-ui, sans-serif; fill: #333; }
.pill { display: inline-block; padding: 0 .4em; border-radius: .6em; background: #eee; font-size: .85em; }
`;

/**
 * Click a header, or focus it and press Enter or Space, to sort by it; again to reverse. The first sort of a text
 * column is A→Z, of a number column highest first.
 */
export const CLASS_SCRIPT = `
for (const table of document.querySelectorAll('table.sortable')) {
  const headers = [...table.querySelectorAll('th[data-sort]')];
  const sortBy = (th) => {
    const current = th.getAttribute('aria-sort');
    const descending = current ? current === 'ascending' : th.dataset.sort === 'number';
    headers.forEach((other) => other.removeAttribute('aria-sort'));
    th.setAttribute('aria-sort', descending ? 'descending' : 'ascending');
    const index = [...th.parentNode.children].indexOf(th);
    const body = table.tBodies[0];
    const numeric = th.dataset.sort === 'number';
    const value = (row) => row.children[index].dataset.value ?? row.children[index].textContent;
    const rows = [...body.rows].sort((a, b) => {
      const x = value(a), y = value(b);
      const order = numeric ? Number(x) - Number(y) : String(x).localeCompare(String(y));
      return descending ? -order : order;
    });
    body.append(...rows);
  };
  for (const th of headers) {
    th.tabIndex = 0;
    th.addEventListener('click', () => sortBy(th));
    th.addEventListener('keydown', (event) => {
      if (event.key === 'Enter' || event.key === ' ') {
        event.preventDefault();
        sortBy(th);
      }
    });
  }
}
`;

export const CLASS_TEMPLATE = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'; script-src 'unsafe-inline'">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>{{title}} — class summary</title>
<style>{{{css}}}</style>
</head>
<body>
<h1>{{title}}</h1>
{{#if isolationKnown}}{{#if hardened}}<p id="isolation"><span class="badge hardened">hardened</span> every submission ran in the bubblewrap sandbox</p>{{else}}<p id="isolation" class="not-isolated"><span class="badge not-isolated">not isolated</span> {{notIsolatedText}} without bubblewrap: results guard against accidents, not attacks</p>{{/if}}{{/if}}
<p class="meta">{{studentsText}} · mean {{mean}} / {{maxScore}} · median {{median}}{{#if notGradedCount}} (of the {{scoredCount}} graded; {{notGradedCount}} not graded){{/if}} · {{failedText}}{{#if anonymized}} · anonymised view{{/if}} · <time datetime="{{generatedAt}}">{{generatedText}}</time></p>

<h2>Leaderboard</h2>
<div class="scroll"><table class="sortable" id="leaderboard">
<thead><tr>
<th data-sort="number">#</th><th class="text" data-sort="text">Student</th><th class="text" data-sort="text">Language</th><th class="text" data-sort="text">Late</th><th data-sort="number">Score</th><th data-sort="number">%</th>
<th data-sort="number">Interface</th>{{#each itemHeaders}}<th data-sort="number" title="{{opponent}}">{{title}}</th>{{/each}}
<th class="text" data-sort="text">Losses by rule</th>{{#unless anonymized}}<th class="text">Report</th>{{/unless}}
</tr></thead>
<tbody>
{{#each rows}}<tr class="{{#if failed}}failed{{/if}}">
<td data-value="{{rank}}">{{rank}}</td><td class="text">{{name}}{{#if identicalTo}} <span class="pill twin" title="the same files as {{identicalTo}}">identical to {{identicalTo}}</span>{{/if}}</td><td class="text">{{language}}</td><td class="text">{{#if late}}late{{/if}}</td>{{#if notGraded}}<td data-value="-1">not graded</td><td data-value="-1"></td>
<td data-value="-1"></td>{{#each items}}<td data-value="-1"></td>{{/each}}{{else}}<td data-value="{{score}}">{{score}} / {{maxScore}}</td><td data-value="{{percent}}">{{percent}}</td>
<td data-value="{{interfacePoints}}">{{interfacePoints}}</td>{{#each items}}<td data-value="{{points}}" title="win rate {{winRate}}">{{points}}</td>{{/each}}{{/if}}
<td class="text verdicts">{{verdicts}}</td>{{#unless ../anonymized}}<td class="text">{{#if report}}<a href="{{report}}">report</a>{{else}}—{{/if}}</td>{{/unless}}
</tr>
{{/each}}
</tbody>
</table></div>

<h2>Score distribution</h2>
{{{histogram}}}

<h2>Win rate per opponent</h2>
<div class="scroll"><table class="sortable" id="opponents">
<thead><tr><th class="text" data-sort="text">Item</th><th class="text" data-sort="text">Opponent</th><th data-sort="number">Students</th>
<th data-sort="number">Mean win rate</th><th data-sort="number">Median</th><th data-sort="number">Full points</th><th class="text">W-D-L (all games)</th></tr></thead>
<tbody>
{{#each opponents}}<tr><td class="text">{{title}}</td><td class="text">{{opponent}}</td><td data-value="{{students}}">{{students}}</td>
<td data-value="{{mean}}">{{meanText}}</td><td data-value="{{median}}">{{medianText}}</td><td data-value="{{fullShare}}">{{fullText}}</td><td class="text">{{wins}}-{{draws}}-{{losses}}</td></tr>
{{/each}}
</tbody>
</table></div>

<h2>Failed the interface check or not graded ({{failures.length}})</h2>
{{#if failures.length}}
<div class="scroll"><table id="failures">
<thead><tr><th class="text">Student</th><th class="text">Status</th><th class="text">Reason</th></tr></thead>
<tbody>
{{#each failures}}<tr><td class="text">{{name}}</td><td class="text"><span class="pill">{{status}}</span></td><td class="reason">{{reason}}</td></tr>
{{/each}}
</tbody>
</table></div>
{{else}}<p>Everyone passed the interface check.</p>{{/if}}
<script>{{{script}}}</script>
</body>
</html>
`;
