import { errorSelfUrl } from './resource-links.js';

describe('errorSelfUrl', () => {
  const endpoint = 'https://api.example.com/api/rest';

  it('is the request URL below the endpoint, query string kept as sent', () => {
    expect(errorSelfUrl(endpoint, 'api/rest', { path: '/api/rest/post/1', query: 'include=x' })).toBe(
      `${endpoint}/post/1?include=x`,
    );
    expect(errorSelfUrl(endpoint, 'api/rest', { path: '/v1/api/rest/post', query: '' })).toBe(`${endpoint}/post`);
    expect(errorSelfUrl(endpoint, '/api/rest/', { path: '/api/rest', query: 'a=1' })).toBe(`${endpoint}?a=1`);
  });

  it('finds the default mount served without its api segment, below a prefix and a version', () => {
    expect(errorSelfUrl(endpoint, 'api/rest', { path: '/api/v1/rest/post/1', query: '' })).toBe(`${endpoint}/post/1`);
  });

  it('does not take a longer segment for the mount', () => {
    expect(errorSelfUrl(endpoint, 'api/rest', { path: '/api/restless/api/rest/tag', query: '' })).toBe(
      `${endpoint}/tag`,
    );
  });
});
