// The part of autocannon's programmatic API the runner uses (the package ships no types).
declare module 'autocannon' {
  interface Histogram {
    average: number;
    p50: number;
    p99: number;
    max: number;
    total: number;
  }
  /** A request as autocannon builds it, which `setupRequest` may change before it is sent. */
  interface RequestData {
    method: string;
    path: string;
    headers: Record<string, string>;
    body?: string;
  }
  interface AutocannonOptions {
    url: string;
    method?: string;
    body?: string;
    headers?: Record<string, string>;
    connections?: number;
    duration?: number;
    timeout?: number;
    /** Requests each connection sends in turn; `setupRequest` is called for every request sent. */
    requests?: { setupRequest?: (request: RequestData) => RequestData }[];
  }
  interface AutocannonResult {
    requests: Histogram;
    latency: Histogram;
    duration: number;
    errors: number;
    timeouts: number;
    non2xx: number;
    statusCodeStats: Record<string, { count: number }>;
  }
  function autocannon(options: AutocannonOptions): Promise<AutocannonResult>;
  export default autocannon;
}
