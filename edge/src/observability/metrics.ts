/**
 * A small in-process metrics registry written out in the Prometheus text exposition format (0.0.4).
 * In-process on purpose: counters are a map increment, and no library we looked at runs on Deno
 * Deploy without Node-only parts. Labels are bounded by construction: routes are path templates
 * (`/api/jobs/:id`), statuses and outcomes are small fixed sets.
 */
type Labels = Record<string, string>;

interface Series {
  labels: Labels;
  value: number;
}

interface HistogramSeries {
  labels: Labels;
  counts: number[];
  sum: number;
  count: number;
}

/** Latency buckets in seconds: fine below 100 ms (most API answers), coarse up to a minute (pulls). */
const LATENCY_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60];

class Counter {
  readonly #series = new Map<string, Series>();
  constructor(
    readonly name: string,
    readonly help: string,
  ) {}

  inc(labels: Labels = {}, by = 1): void {
    const key = labelKey(labels);
    const series = this.#series.get(key);
    if (series) series.value += by;
    else this.#series.set(key, { labels, value: by });
  }

  render(): string {
    const lines = [`# HELP ${this.name} ${this.help}`, `# TYPE ${this.name} counter`];
    for (const series of this.#series.values()) {
      lines.push(`${this.name}${formatLabels(series.labels)} ${formatNumber(series.value)}`);
    }
    return lines.join("\n");
  }
}

class Histogram {
  readonly #series = new Map<string, HistogramSeries>();
  constructor(
    readonly name: string,
    readonly help: string,
    readonly buckets: readonly number[] = LATENCY_BUCKETS,
  ) {}

  observe(labels: Labels, value: number): void {
    const key = labelKey(labels);
    let series = this.#series.get(key);
    if (!series) {
      series = { labels, counts: this.buckets.map(() => 0), sum: 0, count: 0 };
      this.#series.set(key, series);
    }
    // Stored per bucket, summed when written (Prometheus buckets are cumulative).
    const index = this.buckets.findIndex((bound) => value <= bound);
    if (index >= 0) series.counts[index] = (series.counts[index] ?? 0) + 1;
    series.sum += value;
    series.count += 1;
  }

  render(): string {
    const lines = [`# HELP ${this.name} ${this.help}`, `# TYPE ${this.name} histogram`];
    for (const series of this.#series.values()) {
      let cumulative = 0;
      this.buckets.forEach((bound, index) => {
        cumulative += series.counts[index] ?? 0;
        const labels = formatLabels({ ...series.labels, le: formatNumber(bound) });
        lines.push(`${this.name}_bucket${labels} ${cumulative}`);
      });
      lines.push(`${this.name}_bucket${formatLabels({ ...series.labels, le: "+Inf" })} ${series.count}`);
      lines.push(`${this.name}_sum${formatLabels(series.labels)} ${formatNumber(series.sum)}`);
      lines.push(`${this.name}_count${formatLabels(series.labels)} ${series.count}`);
    }
    return lines.join("\n");
  }
}

/** A value read when scraped (from the database: the same for every instance). */
export interface GaugeReading {
  name: string;
  help: string;
  series: Series[];
}

/** What the app counts. Features get the one instrument they need (a counter call), not the registry. */
export function createMetrics() {
  const requests = new Counter(
    "stockbridge_http_requests_total",
    "HTTP requests answered, by route and status",
  );
  const latency = new Histogram(
    "stockbridge_http_request_duration_seconds",
    "Time from request to response headers, by route",
  );
  const outsideCalls = new Counter(
    "stockbridge_outside_calls_total",
    "Requests to Shopify and Acumatica, by system and outcome (HTTP status class, or error)",
  );
  const throttleWaits = new Counter(
    "stockbridge_throttle_waits_total",
    "Waits before or after a Shopify call for its cost bucket to refill",
  );
  const throttleWaitSeconds = new Counter(
    "stockbridge_throttle_wait_seconds_total",
    "Time spent in those waits",
  );
  const costPoints = new Counter(
    "stockbridge_shopify_cost_points_total",
    "Shopify GraphQL cost points actually used",
  );
  return {
    requests,
    latency,
    outsideCalls,
    throttleWaits,
    throttleWaitSeconds,
    costPoints,
    /** The exposition text: this process's counters, then the gauges read at scrape time. */
    render(gauges: GaugeReading[] = []): string {
      const blocks = [requests, latency, outsideCalls, throttleWaits, throttleWaitSeconds, costPoints].map(
        (instrument) => instrument.render(),
      );
      for (const gauge of gauges) {
        const lines = [`# HELP ${gauge.name} ${gauge.help}`, `# TYPE ${gauge.name} gauge`];
        for (const series of gauge.series) {
          lines.push(`${gauge.name}${formatLabels(series.labels)} ${formatNumber(series.value)}`);
        }
        blocks.push(lines.join("\n"));
      }
      return `${blocks.join("\n")}\n`;
    },
  };
}

export type Metrics = ReturnType<typeof createMetrics>;

function labelKey(labels: Labels): string {
  return Object.keys(labels)
    .sort()
    .map((name) => `${name}=${labels[name]}`)
    .join("\u0000");
}

function formatLabels(labels: Labels): string {
  const names = Object.keys(labels);
  if (names.length === 0) return "";
  const pairs = names.map((name) => `${name}="${escapeLabel(labels[name] ?? "")}"`);
  return `{${pairs.join(",")}}`;
}

function escapeLabel(value: string): string {
  return value.replace(/\\/g, "\\\\").replace(/\n/g, "\\n").replace(/"/g, '\\"');
}

function formatNumber(value: number): string {
  if (Number.isNaN(value)) return "NaN";
  if (value === Number.POSITIVE_INFINITY) return "+Inf";
  if (value === Number.NEGATIVE_INFINITY) return "-Inf";
  return String(value);
}
