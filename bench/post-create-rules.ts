import { z } from 'zod';

// The write rules of the `rpc-create-rules` scenario, one definition for both servers: our module
// gets them as `rules.Post`, the hand-written baseline calls them itself.

/** What a post's create data must satisfy once prepared. */
export const postCreateSchema = z.object({
  title: z.string().min(1).max(200),
  rating: z.number().min(0).max(5).optional(),
});

/** The small clean-up an application does before storing a post: a trimmed title, empty content by default. */
export function preparePostCreate(data: { title?: unknown; content?: unknown }): void {
  if (typeof data.title === 'string') data.title = data.title.trim();
  data.content ??= '';
}
