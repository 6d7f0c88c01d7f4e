import PDFDocument from 'pdfkit';
import type { ComplianceReport } from './report.ts';

// The report for people: a summary page, then tables, then how to verify it.
// Built-in PDF fonts only (Helvetica, Courier): nothing to load at run time.

const MARGIN = 56;
const INK = '#1f2933';
const MUTED = '#616e7c';
const RULE = '#cbd2d9';
const ACCENT = '#0b5cad';

type Doc = InstanceType<typeof PDFDocument>;

function heading(doc: Doc, text: string): void {
  if (doc.y > doc.page.height - 160) doc.addPage();
  doc.moveDown(0.8).font('Helvetica-Bold').fontSize(13).fillColor(ACCENT).text(text);
  doc.moveDown(0.3).fillColor(INK);
}

/** A two-column table with a header row; breaks across pages. */
function table(doc: Doc, head: [string, string], rows: Array<[string, string | number]>, valueWidth = 120): void {
  const width = doc.page.width - 2 * MARGIN;
  const line = (label: string, value: string, bold: boolean) => {
    if (doc.y > doc.page.height - MARGIN - 40) doc.addPage();
    const y = doc.y;
    doc
      .font(bold ? 'Helvetica-Bold' : 'Helvetica')
      .fontSize(10)
      .fillColor(INK);
    doc.text(label, MARGIN, y, { width: width - valueWidth - 10, ellipsis: true, lineBreak: false });
    doc.text(value, MARGIN + width - valueWidth, y, { width: valueWidth, align: 'right', lineBreak: false });
    doc
      .moveTo(MARGIN, y + 15)
      .lineTo(MARGIN + width, y + 15)
      .strokeColor(RULE)
      .lineWidth(0.5)
      .stroke();
    doc.x = MARGIN;
    doc.y = y + 19;
  };
  line(head[0], head[1], true);
  if (rows.length === 0) line('none', '', false);
  for (const [k, v] of rows) line(k, typeof v === 'number' ? v.toLocaleString('en-US') : v, false);
}

/** Version 0 is the built-in default policy a workspace starts on. */
const policyName = (version: number) => (version === 0 ? 'built-in default (v0)' : `v${version}`);

const entries = (m: Record<string, number>) => Object.entries(m).sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1));

export function reportPdf(r: ComplianceReport): Promise<Buffer> {
  const doc = new PDFDocument({
    size: 'A4',
    margins: { top: MARGIN, bottom: MARGIN, left: MARGIN, right: MARGIN },
    bufferPages: true,
    info: {
      Title: 'agent-ledger compliance report',
      Subject: `${r.period.from} to ${r.period.to}`,
      Creator: 'agent-ledger',
    },
  });
  const chunks: Buffer[] = [];
  doc.on('data', (c: Buffer) => chunks.push(c));
  const done = new Promise<Buffer>((resolve, reject) => {
    doc.on('end', () => resolve(Buffer.concat(chunks)));
    doc.on('error', reject);
  });

  // Summary page.
  doc.font('Helvetica-Bold').fontSize(22).fillColor(INK).text('Compliance report');
  doc.moveDown(0.2).font('Helvetica').fontSize(11).fillColor(MUTED);
  doc.text(`Workspace ${r.tenant_id}`);
  doc.text(`Period ${r.period.from} to ${r.period.to} (end excluded)`);
  doc.text(`Generated ${r.generated_at}`);
  doc.moveDown(1).fillColor(INK);
  const t = r.totals;
  const verdict = (v: string) => t.invocations_by_verdict[v] ?? 0;
  table(
    doc,
    ['Summary', ''],
    [
      ['Invocations recorded', t.invocations],
      ['  allowed', verdict('allow')],
      ['  flagged for review', verdict('flag_for_review')],
      ['  denied', verdict('deny')],
      ['Agents active', Object.keys(t.invocations_by_agent).length],
      ['Rogue (out-of-scope) events', t.rogue_events],
      ['PII findings (redacted before storage)', Object.values(t.pii_findings_by_type).reduce((a, b) => a + b, 0)],
      ['Secret findings', Object.values(t.secret_findings_by_type).reduce((a, b) => a + b, 0)],
      ['Prompt-injection findings', t.injection_findings],
      ['Reviews pending', r.reviews.pending],
      ['Reviews approved', r.reviews.approved],
      ['Reviews rejected', r.reviews.rejected],
      // Versions are names, not counts: "v3", never a bare number in the figures column.
      ['Policy versions in force', r.policy_versions.map((p) => policyName(p.version)).join(', ') || 'none'],
      ['Log entries of the period', r.entries ? `${r.entries.start} to ${r.entries.end - 1}` : 'none'],
      ['Signed log size', r.evidence.tree_size],
    ],
  );
  doc.moveDown(1).font('Helvetica').fontSize(9).fillColor(MUTED);
  doc.text(
    'Every figure in this report can be recomputed from the workspace audit trail, a signed, append-only Merkle log ' +
      '(RFC 6962) whose checkpoint is printed on the last page. The last section says how to verify it.',
    { width: doc.page.width - 2 * MARGIN },
  );

  doc.addPage();
  heading(doc, 'Invocations by agent');
  table(doc, ['Agent', 'Invocations'], entries(t.invocations_by_agent));
  heading(doc, 'Invocations by verdict');
  table(doc, ['Verdict', 'Invocations'], entries(t.invocations_by_verdict));
  heading(doc, 'Invocations by mode');
  table(doc, ['Mode', 'Invocations'], entries(t.invocations_by_mode));
  heading(doc, 'Rogue events by type');
  table(doc, ['Event type', 'Events'], entries(t.rogue_events_by_type));
  heading(doc, 'PII findings by type');
  table(doc, ['Type', 'Findings'], entries(t.pii_findings_by_type));
  heading(doc, 'Secret findings by type');
  table(doc, ['Type', 'Findings'], entries(t.secret_findings_by_type));
  heading(doc, 'Review outcomes');
  table(
    doc,
    ['Outcome', 'Invocations'],
    [
      ['pending', r.reviews.pending],
      ['approved', r.reviews.approved],
      ['rejected', r.reviews.rejected],
    ],
  );
  if (r.reviews.open_items.length > 0) {
    heading(doc, 'Open review items (invocation ids)');
    doc
      .font('Courier')
      .fontSize(9)
      .fillColor(INK)
      .text(r.reviews.open_items.join(', '), { width: doc.page.width - 2 * MARGIN });
  }
  heading(doc, 'Policy versions in force');
  table(
    doc,
    ['Version', 'In force'],
    r.policy_versions.map((p) => [
      policyName(p.version),
      `${p.in_force_from?.replace('T', ' ').slice(0, 19) ?? 'start'}  to  ${p.in_force_until?.replace('T', ' ').slice(0, 19) ?? 'now'} UTC`,
    ]),
    280,
  );

  doc.addPage();
  heading(doc, 'How to verify this report');
  doc
    .font('Helvetica')
    .fontSize(10)
    .fillColor(INK)
    .text(r.how_to_verify, { width: doc.page.width - 2 * MARGIN });
  doc.moveDown(0.8).font('Helvetica-Bold').text('Verifier key');
  doc
    .font('Courier')
    .fontSize(8)
    .text(r.evidence.verifier_key, { width: doc.page.width - 2 * MARGIN });
  doc.moveDown(0.8).font('Helvetica-Bold').fontSize(10).text('Signed checkpoint (C2SP signed note)');
  doc
    .font('Courier')
    .fontSize(8)
    .text(r.evidence.checkpoint, { width: doc.page.width - 2 * MARGIN });

  // Page numbers on every page.
  const range = doc.bufferedPageRange();
  for (let i = range.start; i < range.start + range.count; i++) {
    doc.switchToPage(i);
    // Writing inside the bottom margin would otherwise start a new page.
    const bottom = doc.page.margins.bottom;
    doc.page.margins.bottom = 0;
    doc.font('Helvetica').fontSize(8).fillColor(MUTED);
    doc.text(
      `agent-ledger compliance report · ${r.period.from.slice(0, 10)} to ${r.period.to.slice(0, 10)} · page ${i + 1} of ${range.count}`,
      MARGIN,
      doc.page.height - MARGIN + 16,
      {
        width: doc.page.width - 2 * MARGIN,
        align: 'center',
        lineBreak: false,
      },
    );
    doc.page.margins.bottom = bottom;
  }
  doc.end();
  return done;
}
