/**
 * The similarity page: clusters first, then every listed pair with its evidence (side-by-side fragments for the
 * source half, agreement figures for the behaviour half), then what was probed and what it cost. In a module, not
 * beside it in files, so it renders wherever the code runs (as the class index does).
 */

export const SIMILARITY_CSS = `
body { font: 14px/1.45 system-ui, sans-serif; margin: 2em auto; max-width: 80em; padding: 0 1em; color: #222; }
h1 { font-size: 1.5em; margin-bottom: .2em; } h2 { font-size: 1.15em; margin-top: 2em; } h3 { font-size: 1em; margin: 1.4em 0 .4em; }
.meta, .muted { color: #666; }
.caveat { background: #fff8e1; border-left: 4px solid #f0b400; padding: .5em .8em; }
.skipped { color: #a33; }
table { border-collapse: collapse; width: 100%; }
th, td { padding: .3em .6em; border-bottom: 1px solid #ddd; text-align: right; white-space: nowrap; vertical-align: top; }
th.text, td.text { text-align: left; white-space: normal; }
.pill { display: inline-block; padding: 0 .45em; border-radius: .6em; background: #eee; font-size: .85em; margin-right: .2em; }
.pill.flag { background: #fde7c2; } .pill.corpus { background: #e3ecf9; }
tr.flagged td:first-child { border-left: 4px solid #e69500; }
.pair { border: 1px solid #ddd; border-radius: 6px; padding: .2em 1em 1em; margin: 1em 0; }
.pair.flagged { border-color: #e69500; }
.fragments { display: grid; grid-template-columns: 1fr 1fr; gap: .5em 1em; }
.fragments .side { min-width: 0; }
.fragments .where { font: 12px ui-monospace, monospace; color: #555; }
pre.code { font: 12px/1.35 ui-monospace, SFMono-Regular, Menlo, monospace; background: #f6f8fa; border: 1px solid #e1e4e8; padding: .4em .6em; overflow-x: auto; margin: .2em 0 .6em; counter-reset: line var(--start); }
pre.code span { display: block; counter-increment: line; }
pre.code span::before { content: counter(line); display: inline-block; width: 3em; margin-right: .8em; color: #999; text-align: right; }
`;

export const SIMILARITY_TEMPLATE = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>{{title}} — similarity</title>
<style>{{{css}}}</style>
</head>
<body>
<h1>{{title}} — similarity</h1>
<p class="meta">{{studentsText}}{{#if corpusCount}} · {{corpusText}} (compared with students only){{/if}} · {{flaggedText}} · {{game}}{{#if anonymized}} · anonymised view{{/if}} · <time datetime="{{generatedAt}}">{{generatedText}}</time></p>
<p class="caveat" id="caveat">A flag is a reason to look, not a verdict. Source scores count code the two share after the course's base code
({{baseFiles}} handed-out files{{#if commonLimit}}, and fragments found in more than {{commonLimit}} submissions{{/if}}) is removed;
behaviour scores count how often two submissions choose the same move, against how often each agrees with itself and how often independent
players agree. Two students who independently implement the same textbook algorithm can agree too: read the code before deciding anything.</p>
<ul id="halves">
<li>Source: {{#if source.ran}}flagged at a score of {{thresholds.source}} or more (k-grams of {{source.kgramLength}} tokens, window {{source.window}}; {{languages}}; {{source.seconds}} s){{else}}<span class="skipped">not run: {{source.skipped}}</span>{{/if}}</li>
<li>Behaviour: {{#if behaviour.ran}}{{behaviour.positions.length}} probe positions asked twice each; flagged at a score of {{thresholds.behaviour.score}} or more with the agreement {{thresholds.behaviour.z}} standard deviations above independent players'; {{behaviour.seconds}} s in all, {{meanProbeSeconds}} s per student{{else}}<span class="skipped">not run: {{behaviour.skipped}}</span>{{/if}}</li>
</ul>

<h2>Clusters ({{clusters.length}})</h2>
{{#if clusters.length}}
<table id="clusters">
<thead><tr><th class="text">Members</th><th>Flagged pairs</th><th>Best source score</th><th>Best behaviour score</th></tr></thead>
<tbody>
{{#each clusters}}<tr><td class="text">{{#each members}}<span class="pill{{#if corpus}} corpus{{/if}}">{{name}}</span>{{/each}}</td><td>{{pairs}}</td><td>{{maxSource}}</td><td>{{maxBehaviour}}</td></tr>
{{/each}}
</tbody>
</table>
{{else}}<p>No pair was flagged.</p>{{/if}}

<h2>Pairs ({{pairs.length}} listed)</h2>
{{#if pairs.length}}
<table id="pairs">
<thead><tr><th class="text">Pair</th><th class="text">Flagged by</th><th>Source</th><th>Behaviour</th><th class="text">Behaviour basis</th></tr></thead>
<tbody>
{{#each pairs}}<tr class="{{#if flagged}}flagged{{/if}}"><td class="text"><a href="#{{anchor}}">{{a}} · {{b}}</a>{{#if corpus}} <span class="pill corpus">corpus</span>{{/if}}</td>
<td class="text">{{#each flaggedBy}}<span class="pill flag">{{this}}</span>{{else}}—{{/each}}</td>
<td>{{#if source}}{{source.score}}{{else}}—{{/if}}</td><td>{{#if behaviour}}{{behaviour.score}}{{else}}—{{/if}}</td>
<td class="text">{{#if behaviour}}agree {{behaviour.basis.agreement}} (themselves {{behaviour.basis.selfAgreement.[0]}}/{{behaviour.basis.selfAgreement.[1]}}, independent {{behaviour.basis.expected}}, z {{behaviour.basis.z}}){{#if behaviour.basis.explainedBy}}; both play like {{behaviour.basis.explainedBy}}{{/if}}{{/if}}</td></tr>
{{/each}}
</tbody>
</table>
{{#each pairs}}
<section class="pair{{#if flagged}} flagged{{/if}}" id="{{anchor}}">
<h3>{{a}} · {{b}}{{#if flagged}} <span class="pill flag">flagged</span>{{/if}}</h3>
{{#if source}}<p>Source score {{source.score}} (shared {{source.similarity}} of both; {{source.containment.[0]}} of {{a}}'s own code is in {{b}}'s, {{source.containment.[1]}} the other way; own fingerprints {{source.fingerprints.[0]}} / {{source.fingerprints.[1]}}).
Files: {{#each source.files}}<span class="pill">{{a}} ↔ {{b}} ({{shared}})</span>{{/each}}</p>
<div class="fragments">
{{#each source.fragments}}{{#if a.lines}}<div class="side"><div class="where">{{../a}} · {{a.file}}:{{a.startLine}}–{{a.endLine}}</div><pre class="code" style="--start: {{a.counterStart}}">{{#each a.lines}}<span>{{this}}</span>{{/each}}</pre></div>
<div class="side"><div class="where">{{../b}} · {{b.file}}:{{b.startLine}}–{{b.endLine}}</div><pre class="code" style="--start: {{b.counterStart}}">{{#each b.lines}}<span>{{this}}</span>{{/each}}</pre></div>
{{else}}<div class="side where">{{a.file}}:{{a.startLine}}–{{a.endLine}}</div><div class="side where">{{b.file}}:{{b.startLine}}–{{b.endLine}}</div>
{{/if}}{{/each}}
</div>{{else}}<p class="muted">No source in common{{#if ../source.ran}} (different languages, or only base code){{/if}}.</p>{{/if}}
{{#if behaviour}}<p>Behaviour score {{behaviour.score}}: over {{behaviour.basis.positions}} positions they chose the same move {{behaviour.basis.agreement}} of the time; each agreed with itself {{behaviour.basis.selfAgreement.[0]}} and {{behaviour.basis.selfAgreement.[1]}}; independent players agree {{behaviour.basis.expected}} (z = {{behaviour.basis.z}}; the class's median pair {{behaviour.basis.classMedian}}, this pair above {{behaviour.basis.classPercentile}} of them).{{#if behaviour.basis.explainedBy}} Both play like {{behaviour.basis.explainedBy}}, which explains the agreement: not flagged on behaviour.{{/if}}</p>{{/if}}
</section>
{{/each}}
{{else}}<p>No pair shares enough to list.</p>{{/if}}

<h2>What was probed</h2>
{{#if behaviour.ran}}
<p>Each position was asked twice of every submission (seed {{behaviour.seed}}; the same seeds for everyone), the player told {{probeLimit}} per move. Independent players' agreement comes from the rest of the class and {{anchors}}.</p>
<table id="costs">
<thead><tr><th class="text">Submission</th><th>Asked</th><th>Answered</th><th>Wall s</th><th>CPU s</th><th class="text">Behaviour score</th></tr></thead>
<tbody>
{{#each costs}}<tr><td class="text">{{name}}</td><td>{{asked}}</td><td>{{answered}}</td><td>{{wall}}</td><td>{{cpu}}</td><td class="text">{{#if scored}}yes{{else}}<span class="skipped">none: {{reason}}</span>{{/if}}</td></tr>
{{/each}}
</tbody>
</table>
<details><summary>{{behaviour.positions.length}} positions</summary><ol>{{#each behaviour.positions}}<li><code>{{state}}</code> — {{origin}}, {{legal}} legal moves</li>{{/each}}</ol></details>
{{else}}<p class="skipped">Behaviour was not probed: {{behaviour.skipped}}</p>{{/if}}

{{#if notes.length}}<h2>Notes</h2>
<ul id="notes">{{#each notes}}<li><strong>{{name}}</strong><ul>{{#each lines}}<li>{{this}}</li>{{/each}}</ul></li>{{/each}}</ul>{{/if}}
</body>
</html>
`;
