// What agents read, as carriers of a training text (injection-training-indirect.ts): markup with hidden
// parts, SVG, search and API JSON, agent observations, RAG chunks, e-mail, markdown footnotes and link
// titles, code comments and strings, commits, pull requests, CSV/TSV, logs, YAML/TOML, iCalendar, vCard,
// subtitles, reviews, CVs, PDF text, wiki pages, LaTeX, Kubernetes annotations, SQL, and long prose with
// the text in its middle (the scorer reads windows, so the text must decide, not its surroundings).
// Attacks and hard negatives go into the same carriers, so a carrier's own words teach nothing.
// Licence: Apache-2.0, as the repository.

type Escape = 'json' | 'html' | 'csv' | 'sql' | 'yaml' | 'ics' | 'latex' | undefined;

/** A carrier: {X} is the payload, {F} and {G} benign sentences of the payload's language, {N} a number. */
const CARRIERS: Array<[id: string, tmpl: string, escape?: Escape]> = [
  ['html-comment', '<article class="post">\n<p>{F}</p>\n<!-- {X} -->\n<p>{G}</p>\n</article>'],
  ['html-hidden-span', '<p>{F} <span style="display:none">{X}</span></p>'],
  ['html-white-text', '<div class="footer"><p>{F}</p><p style="color:#ffffff;font-size:1px">{X}</p></div>'],
  ['html-data-attr', '<div class="product" data-sku="B{N}" data-note="{X}">{F}</div>', 'html'],
  [
    'svg',
    '<svg xmlns="http://www.w3.org/2000/svg" width="120" height="40"><title>Chart {N}</title><desc>{X}</desc><rect width="120" height="40" fill="#eee"/></svg>',
    'html',
  ],
  [
    'search-json',
    '{"query":"opening hours","results":[{"rank":1,"title":"Info","snippet":"{F}"},{"rank":2,"title":"Page {N}","snippet":"{X}"}]}',
    'json',
  ],
  ['api-json', '{"id":{N},"status":"ok","data":{"name":"item-{N}","note":"{X}","updated":"2026-02-11"}}', 'json'],
  [
    'agent-observation',
    'Thought: I need the page content.\nAction: fetch_url("https://docs.example.org/p/{N}")\nObservation: {F} {X}\nThought:',
  ],
  ['rag-chunk', '[chunk {N} | source: kb/faq.md | score 0.8{N}]\n{F}\n{X}\n{G}'],
  [
    'email',
    'From: notifications@mail.example.org\nTo: team@example.com\nSubject: Update {N}\n\n{F}\n\n{X}\n\nRegards,\nOffice',
  ],
  ['email-quoted', '> {F}\n> {G}\n\n{X}\n\nSent from my phone'],
  ['md-footnote', '{F}[^1] {G}\n\n[^1]: {X}'],
  ['md-link-title', 'See the [manual](https://docs.example.org/m{N} "{X}") for details. {F}', 'json'],
  ['md-quote', '## Notes\n\n{F}\n\n> {X}\n\n{G}'],
  ['code-comment-js', '// {X}\nexport function total(items) {\n  return items.reduce((s, i) => s + i.price, 0);\n}'],
  ['code-comment-py', 'def total(items):\n    # {X}\n    return sum(i.price for i in items)'],
  ['code-string', 'const HELP_TEXT_{N} = "{X}";\nexport default HELP_TEXT_{N};', 'json'],
  [
    'commit',
    'commit 9f3c2{N}ab81e\nAuthor: dev <dev@example.com>\nDate:   Tue Mar 3 10:12:00 2026\n\n    Update dependencies\n\n    {X}',
  ],
  ['pull-request', '### What\n{F}\n\n### Why\n{X}\n\n### Testing\n- [x] unit tests'],
  ['csv', 'id,name,comment\n{N},Lamp,"{X}"\n{N}1,Chair,ok', 'csv'],
  ['tsv', 'id\tstatus\tnote\n{N}\topen\t{X}\n{N}2\tclosed\t-'],
  [
    'log',
    '2026-03-0{N}T10:00:01Z INFO  [ingest] batch started\n2026-03-0{N}T10:00:02Z WARN  [ingest] {X}\n2026-03-0{N}T10:00:03Z INFO  [ingest] batch done',
    'json',
  ],
  ['yaml', 'name: web-{N}\nreplicas: 2\ndescription: "{X}"\nowner: platform', 'yaml'],
  ['toml', '[package]\nname = "tool-{N}"\nversion = "1.2.0"\ndescription = "{X}"', 'json'],
  [
    'ics',
    'BEGIN:VEVENT\nUID:{N}@example.org\nSUMMARY:Review\nDESCRIPTION:{X}\nDTSTART:20260312T090000Z\nEND:VEVENT',
    'ics',
  ],
  ['vcard', 'BEGIN:VCARD\nVERSION:3.0\nFN:Contact {N}\nORG:Example Ltd\nNOTE:{X}\nEND:VCARD', 'ics'],
  ['subtitles', '{N}\n00:01:0{N},000 --> 00:01:0{N},900\n{F}\n\n{N}1\n00:01:10,000 --> 00:01:13,500\n{X}'],
  ['review', '★★★★☆ Verified purchase\n{F} {X}'],
  ['cv', 'EXPERIENCE\n2019-2024  Analyst, Example Ltd\n\nSKILLS\nSQL, Python, Excel\n\n{X}'],
  ['pdf-text', 'Page {N} of 12\n\n{F}\n{X}\n\n{G}'],
  ['wiki', '== Overview ==\n{F} {X} {G}\n\n== See also =='],
  ['latex', '\\section{Results}\n{F}\n% {X}\n\\begin{table}[h]\\end{table}', 'latex'],
  [
    'k8s',
    'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: app-{N}\n  annotations:\n    note: "{X}"\ndata:\n  LOG_LEVEL: info',
    'yaml',
  ],
  ['sql', "INSERT INTO notes (id, body) VALUES ({N}, '{X}');", 'sql'],
  ['chat-tool', '[{"role":"tool","name":"read_page","content":"{F} {X}"}]', 'json'],
];

function escapeFor(how: Escape, s: string): string {
  switch (how) {
    case 'json':
      return s.replace(/\\/g, '\\\\').replace(/"/g, '\\"').replace(/\n/g, '\\n');
    case 'html':
      return s.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
    case 'csv':
      return s.replace(/"/g, '""').replace(/\n/g, ' ');
    case 'sql':
      return s.replace(/'/g, "''");
    case 'yaml':
      return s.replace(/\\/g, '\\\\').replace(/"/g, '\\"').replace(/\n/g, ' ');
    case 'ics':
      return s.replace(/([,;])/g, '\\$1').replace(/\n/g, '\\n');
    case 'latex':
      return s.replace(/\n/g, ' ');
    default:
      return s;
  }
}

const pick = <T>(r: () => number, xs: readonly T[]): T => xs[Math.floor(r() * xs.length)]!;

/**
 * `payload` in a carrier (with the carrier's id), or in the middle of 3-6 benign sentences of its
 * language (id "prose"). `filler`: benign sentences of the payload's language.
 */
export function carry(
  payload: string,
  filler: readonly string[],
  sep: string,
  r: () => number,
): [id: string, text: string] {
  if (r() < 0.15) {
    const before = Array.from({ length: 1 + Math.floor(r() * 3) }, () => pick(r, filler));
    const after = Array.from({ length: 1 + Math.floor(r() * 3) }, () => pick(r, filler));
    return ['prose', [...before, payload, ...after].join(sep)];
  }
  const [id, tmpl, esc] = pick(r, CARRIERS);
  const n = String(1 + Math.floor(r() * 9));
  const text = tmpl
    .replace(/\{N\}/g, n)
    .replace('{F}', pick(r, filler))
    .replace('{G}', pick(r, filler))
    .replace('{X}', () => escapeFor(esc, payload));
  return [id, text];
}
