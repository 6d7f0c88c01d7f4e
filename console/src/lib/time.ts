// Times travel as RFC 3339 UTC; they are shown in the zone chosen in the header.

const cache = new Map<string, Intl.DateTimeFormat>();
function fmt(zone: string): Intl.DateTimeFormat {
  let f = cache.get(zone);
  if (!f) {
    f = new Intl.DateTimeFormat('en-CA', {
      timeZone: zone,
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
      hourCycle: 'h23',
    });
    cache.set(zone, f);
  }
  return f;
}

/** "2026-06-01 14:03:09" in the zone. */
export function formatTime(iso: string | Date | null | undefined, zone: string): string {
  if (!iso) return '—';
  const d = typeof iso === 'string' ? new Date(iso) : iso;
  if (Number.isNaN(d.getTime())) return String(iso);
  const parts = Object.fromEntries(
    fmt(zone)
      .formatToParts(d)
      .map((p) => [p.type, p.value]),
  );
  return `${parts.year}-${parts.month}-${parts.day} ${parts.hour}:${parts.minute}:${parts.second}`;
}

export function zoneLabel(zone: string): string {
  return zone === 'UTC' ? 'UTC' : zone.replace(/_/g, ' ');
}

/** Offset of a zone at an instant, in minutes east of UTC. */
function offsetMinutes(zone: string, at: Date): number {
  const p = Object.fromEntries(
    fmt(zone)
      .formatToParts(at)
      .map((x) => [x.type, x.value]),
  );
  const asUtc = Date.UTC(+p.year!, +p.month! - 1, +p.day!, +p.hour! % 24, +p.minute!, +p.second!);
  return Math.round((asUtc - Math.floor(at.getTime() / 1000) * 1000) / 60000);
}

/** A datetime-local value ("2026-06-01T14:03") read in the zone, as an ISO instant. */
export function localInputToIso(value: string, zone: string): string | undefined {
  if (!value) return undefined;
  const m = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2}))?$/.exec(value);
  if (!m) return undefined;
  const guess = Date.UTC(+m[1]!, +m[2]! - 1, +m[3]!, +m[4]!, +m[5]!, +(m[6] ?? 0));
  const off = offsetMinutes(zone, new Date(guess));
  return new Date(guess - off * 60000).toISOString();
}

/** An ISO instant as a datetime-local value in the zone. */
export function isoToLocalInput(iso: string | undefined, zone: string): string {
  if (!iso) return '';
  return formatTime(iso, zone).replace(' ', 'T').slice(0, 16);
}

const nf = new Intl.NumberFormat();
export const formatNumber = (n: number | null | undefined) => (n === null || n === undefined ? '—' : nf.format(n));
