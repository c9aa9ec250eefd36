// The package ships no types: what test/metrics.test.ts reads of its output (prom2json's shape).
declare module 'parse-prometheus-text-format' {
  export interface Sample { labels?: Record<string, string>; value?: string; buckets?: Record<string, string>; count?: string; sum?: string }
  export interface Family { name: string; help: string; type: 'COUNTER' | 'GAUGE' | 'HISTOGRAM' | 'SUMMARY' | 'UNTYPED'; metrics: Sample[] }
  export default function parsePrometheusTextFormat(text: string): Family[];
}
