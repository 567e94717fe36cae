/**
 * Retries an expectation until it holds or `timeout` ms have passed (then throws its last failure):
 * for effects that happen after the answer, such as change events delivered after the commit.
 */
export async function eventually(expectation: () => unknown | Promise<unknown>, timeout = 3000): Promise<void> {
  const deadline = Date.now() + timeout;
  for (;;) {
    try {
      await expectation();
      return;
    } catch (error) {
      if (Date.now() > deadline) throw error;
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
  }
}

/** Long enough for an effect scheduled after the answer to have happened, to check that it did not. */
export const settled = () => new Promise((resolve) => setTimeout(resolve, 100));
