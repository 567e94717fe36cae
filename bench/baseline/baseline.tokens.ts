/** The sample database (`SampleDatabase`) a baseline controller queries. */
export const BENCH_DATABASE = Symbol('BENCH_DATABASE');
/** The REST endpoint URL the baseline builds its links from, the same one our module gets. */
export const BENCH_ENDPOINT = Symbol('BENCH_ENDPOINT');
