import { isServerFailure } from './server-failure.js';

const prismaError = (code: string, meta?: Record<string, unknown>) =>
  Object.assign(new Error('x'), { name: 'PrismaClientKnownRequestError', code, meta });
const postgres = (code: string) => prismaError('P2010', { driverAdapterError: { cause: { originalCode: code } } });

describe('isServerFailure', () => {
  it("tells the server's failures from the request's", () => {
    const server = [
      new Error('Connection terminated unexpectedly'),
      prismaError('P1001'),
      prismaError('P1017'),
      prismaError('P2024'),
      postgres('57P01'),
      postgres('08006'),
      postgres('40001'),
    ];
    const request = [
      prismaError('P2025'),
      prismaError('P2002'),
      postgres('22P02'),
      Object.assign(new Error('x'), { name: 'PrismaClientValidationError' }),
    ];
    expect(server.map(isServerFailure)).toEqual(server.map(() => true));
    expect(request.map(isServerFailure)).toEqual(request.map(() => false));
  });
});
