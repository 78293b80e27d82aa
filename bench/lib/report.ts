/** Collects figures and prints them with their baselines, ratios and targets. */

export interface Figure {
  name: string;
  value: number;
  unit: string;
  baseline?: { name: string; value: number };
  /** The ratio must be at most (`max`) or at least (`min`) this, or the value at most `maxValue`. */
  target?: { maxRatio?: number; minRatio?: number; maxValue?: number; text: string };
}

export class Report {
  readonly figures: Figure[] = [];

  add(f: Figure): void {
    this.figures.push(f);
    const ratio = f.baseline ? f.value / f.baseline.value : undefined;
    const met = meets(f, ratio);
    const parts = [`${f.name.padEnd(46)} ${fmt(f.value, f.unit).padStart(14)}`];
    if (f.baseline && ratio !== undefined) parts.push(`  ${ratio.toFixed(2).padStart(6)}× ${f.baseline.name}`);
    if (f.target) parts.push(`  [target ${f.target.text}: ${met ? 'met' : 'NOT MET'}]`);
    console.log(parts.join(''));
  }

  section(title: string): void {
    console.log(`\n${title}`);
  }

  get unmet(): Figure[] {
    return this.figures.filter((f) => !meets(f, f.baseline ? f.value / f.baseline.value : undefined));
  }
}

function meets(f: Figure, ratio: number | undefined): boolean {
  const t = f.target;
  if (!t) return true;
  if (t.maxRatio !== undefined && (ratio === undefined || ratio > t.maxRatio)) return false;
  if (t.minRatio !== undefined && (ratio === undefined || ratio < t.minRatio)) return false;
  if (t.maxValue !== undefined && f.value > t.maxValue) return false;
  return true;
}

export function fmt(v: number, unit: string): string {
  if (unit === 'us') return v >= 1000 ? `${(v / 1000).toFixed(2)} ms` : `${v.toFixed(1)} µs`;
  if (unit === 'ms') return `${v.toFixed(1)} ms`;
  if (unit === 'MB/s') return `${v.toFixed(1)} MB/s`;
  if (unit === '/s') return `${Math.round(v).toLocaleString('en')}/s`;
  return `${v} ${unit}`;
}
