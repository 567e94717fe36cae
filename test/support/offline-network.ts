/** A network between an offline client and the server that a test takes down, and breaks, at will. */
export class OfflineNetwork {
  /** No request reaches the server: `fetch` fails as it does offline. */
  offline = false;
  /** The next `n` writes reach the server, which applies them, but their answers are lost. */
  dropAnswers = 0;
  /** Requests that reached the server, by method and path. */
  readonly sent: string[] = [];

  readonly fetch: typeof globalThis.fetch = async (input, init) => {
    if (this.offline) throw new TypeError('fetch failed (offline)');
    const url = new URL(String(input));
    this.sent.push(`${init?.method ?? 'GET'} ${url.pathname}`);
    const response = await globalThis.fetch(input, init);
    if (init?.method !== 'GET' && init?.method !== undefined && this.dropAnswers > 0) {
      this.dropAnswers--;
      await response.arrayBuffer();
      throw new TypeError('fetch failed (connection dropped before the answer)');
    }
    return response;
  };
}
