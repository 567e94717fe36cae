import { rpcQuery } from '../support/rpc-client.js';
import { useTestApp } from '../support/test-app.js';

/**
 * One grammar per scalar on both interfaces (docs/scalars.md), end to end: a date-time without its
 * offset names no instant, and both refuse it. The generated agreement test reads every other
 * value without a database (lib/scalars/interfaces-agree.spec.ts); the grammar does not depend on it.
 */
describe('a DateTime filter on both interfaces (sqlite)', () => {
  const t = useTestApp('sqlite');
  const rest = (text: string) => t.http().get(`/api/rest/post?filter[createdAt$lt]=${encodeURIComponent(text)}`);
  const rpc = (text: string) =>
    t
      .http()
      .get('/api/rpc/post/findMany')
      .query(rpcQuery({ where: { createdAt: { lt: text } } }));

  it('refuses 2024-01-01T00:00:00 on both: 400', async () => {
    const [restAnswer, rpcAnswer] = [await rest('2024-01-01T00:00:00'), await rpc('2024-01-01T00:00:00')];
    expect(restAnswer.status).toBe(400);
    expect(restAnswer.body.errors[0]).toMatchObject({
      code: 'invalid-query-parameter',
      source: { parameter: 'filter[createdAt$lt]' },
    });
    expect(rpcAnswer.status).toBe(400);
    expect(rpcAnswer.body.error).toMatchObject({ errorCode: 'invalid-argument' });
  });

  it.each(['2024-01-01T00:00:00Z', '2024-01-01T00:00:00+01:00'])('takes %s on both: 200', async (text) => {
    expect((await rest(text)).status).toBe(200);
    expect((await rpc(text)).status).toBe(200);
  });
});
