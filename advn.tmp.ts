import { adversarialInputs } from "./src/detect/adversarial.ts";
import { detectNames } from "./src/detect/names.ts";
import { importFrozen } from "./scripts/detect/frozen.ts";
const old = await importFrozen<{ detectNames: typeof detectNames }>(process.argv[2]!, "src/detect/names.ts");
const cpu = () => { const u = process.cpuUsage(); return (u.user + u.system) / 1000; };
const time = (f: () => void) => { const c = cpu(); for (let k = 0; k < 5; k++) f(); return (cpu() - c) / 5; };
const rows: [string, number, number][] = [];
for (const [name, input] of Object.entries(adversarialInputs())) {
  for (let i = 0; i < 2; i++) { detectNames(input); old.detectNames(input); }
  const a: number[] = [], b: number[] = [];
  for (let i = 0; i < 7; i++) { a.push(time(() => old.detectNames(input))); b.push(time(() => detectNames(input))); }
  a.sort((x, y) => x - y); b.sort((x, y) => x - y);
  rows.push([name, a[3]!, b[3]!]);
}
rows.sort((x, y) => y[2] / y[1] - x[2] / x[1]);
for (const [n, a, b] of rows.slice(0, 5)) console.log(n.padEnd(16), a.toFixed(2), "->", b.toFixed(2), "ms", (b / a).toFixed(2));
rows.sort((x, y) => y[2] - x[2]);
console.log("worst current:", rows[0]![0], rows[0]![2].toFixed(2), "ms; ref worst", Math.max(...rows.map((r) => r[1])).toFixed(2));
