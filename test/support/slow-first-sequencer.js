// Jest orders the suites by their durations in its cache, and a fresh checkout's (CI) by file size,
// which would start the suites that take longest for what they set up (the static checks, the Nest 11
// application's install and build, child processes, a browser) last, ending the run with one worker busy.
import Sequencer from '@jest/test-sequencer';

const FIRST = [
  '/test/unit/static-checks.',
  '/test/nest11/nest11.e2e',
  '/graceful-shutdown.',
  '/test/browser/',
  '/test/operations/',
];
/** The other suites of the Nest 11 application wait for the first one's install: last, not idle. */
const LAST = ['/test/nest11/'];

export default class SlowFirstSequencer extends Sequencer {
  sort(tests) {
    const rank = (test) => FIRST.findIndex((part) => test.path.includes(part));
    const last = (test) => rank(test) < 0 && LAST.some((part) => test.path.includes(part));
    const sorted = super.sort(tests);
    const first = sorted.filter((test) => rank(test) >= 0).sort((a, b) => rank(a) - rank(b));
    const middle = sorted.filter((test) => rank(test) < 0 && !last(test));
    return [...first, ...middle, ...sorted.filter(last)];
  }
}
