/** Whether a value is a plain object (a JSON object, a Prisma argument), not an array, Date or class instance. */

export function isPlainObject(value: unknown): value is Record<string, any> {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return false;
  const proto = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
}
