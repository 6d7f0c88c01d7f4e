// CPU time from /proc (Linux), for the benchmarks' per-event CPU figures: a
// process's own, the local PostgreSQL server's processes', the machine's idle share.
import { readdirSync, readFileSync } from 'node:fs';

/**
 * CPU time (user + system) a process has used, in microseconds, from
 * /proc/PID/stat (Linux); NaN elsewhere. Unlike requests/s, the CPU an event
 * costs the server barely moves with the load other processes put on the machine.
 */
export function cpuMicros(pid: number | undefined): number {
  if (pid === undefined) return Number.NaN;
  try {
    return procStat(String(pid)).micros;
  } catch {
    return Number.NaN;
  }
}

/** A process's name and CPU time (user + system, in microseconds) from /proc/PID/stat; throws when it is gone. */
function procStat(pid: string): { name: string; micros: number } {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  // utime and stime are fields 14 and 15 of the line, 12 and 13 after the name; clock ticks of 1/100 s.
  return {
    name: stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')')),
    micros: (Number(fields[11]) + Number(fields[12])) * 10_000,
  };
}

/**
 * CPU time each of the local PostgreSQL server's processes has used, in
 * microseconds, by pid (every process named postgres: backends, WAL writer,
 * checkpointer); undefined where /proc is missing.
 */
export function postgresCpuMicros(): Map<string, number> | undefined {
  const byPid = new Map<string, number>();
  let dirs: string[];
  try {
    dirs = readdirSync('/proc').filter((d) => /^\d+$/.test(d));
  } catch {
    return undefined;
  }
  for (const d of dirs) {
    try {
      const { name, micros } = procStat(d);
      if (name === 'postgres') byPid.set(d, micros);
    } catch {
      // Gone meanwhile.
    }
  }
  return byPid;
}

/**
 * The CPU time PostgreSQL's processes used between two readings: of each
 * process alive at the second, what it used since the first (all of it when
 * it started since). A backend that exited meanwhile takes its time with it:
 * the pool's connections, which stay open, are what is counted.
 */
export function postgresCpuSince(before: Map<string, number> | undefined): number {
  const now = postgresCpuMicros();
  if (!before || !now) return Number.NaN;
  let total = 0;
  for (const [pid, micros] of now) total += micros - (before.get(pid) ?? 0);
  return total;
}

/** The machine's idle and total CPU time so far (/proc/stat, clock ticks), for the share of a case it sat idle. */
export function machineTicks(): { idle: number; total: number } {
  try {
    const cpu = readFileSync('/proc/stat', 'utf8').split('\n')[0]!.trim().split(/\s+/).slice(1).map(Number);
    return { idle: cpu[3]! + cpu[4]!, total: cpu.reduce((a, b) => a + b, 0) };
  } catch {
    return { idle: Number.NaN, total: Number.NaN };
  }
}
