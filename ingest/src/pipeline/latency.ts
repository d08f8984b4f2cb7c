/** Reading-to-store latency histogram: 1 ms buckets up to 60 s, weighted by readings. */
export class LatencyHistogram {
  private readonly buckets = new Float64Array(60_001);
  count = 0;

  add(ms: number, weight = 1): void {
    const b = ms <= 0 ? 0 : ms >= 60_000 ? 60_000 : Math.round(ms);
    this.buckets[b] += weight;
    this.count += weight;
  }

  percentile(p: number): number {
    if (this.count === 0) return 0;
    const target = this.count * p;
    let seen = 0;
    for (let i = 0; i < this.buckets.length; i++) {
      seen += this.buckets[i];
      if (seen >= target) return i;
    }
    return 60_000;
  }

  reset(): void {
    this.buckets.fill(0);
    this.count = 0;
  }
}
