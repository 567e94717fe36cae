import fc from 'fast-check';

/** Names no Prisma schema uses but a code-generating builder must survive: quotes, escapes, comment and template text, prototype keys. */
export const HOSTILE_NAMES = [
  'a"b',
  "a'b",
  'a\\',
  'x\n}',
  '*/',
  '${process.exit(1)}',
  '"]: process.exit(1), ["',
  '__proto__',
  'constructor',
  'toString',
  'é',
  '',
];

/** A field or relationship name: a hostile one, or any short string. */
export const hostileName = fc.oneof(fc.constantFrom(...HOSTILE_NAMES), fc.string({ maxLength: 6 }));
