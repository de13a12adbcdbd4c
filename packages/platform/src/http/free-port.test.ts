import { createServer, type Server } from 'node:net';
import { ephemeralLow, freePort, freePortBlock } from './free-port';

describe('freePort', () => {
  test('when the system gives its ephemeral range, then the port is picked below it', async () => {
    const picks = [0, 0.5, 0.999999];
    const ports = await Promise.all(
      picks.map((value) => freePort({ rangeText: '32768\t60999\n', random: () => value, isFree: async () => true })),
    );
    expect(ports).toEqual([20000, 26384, 32767]);
  });

  test('when a picked port is taken, then another one is tried', async () => {
    const values = [0.1, 0.2];
    const tried: number[] = [];
    const port = await freePort({
      rangeText: '30000 60999',
      random: () => values.shift() ?? 0.3,
      isFree: async (candidate) => {
        tried.push(candidate);
        return tried.length > 1;
      },
    });
    expect(tried).toEqual([21000, 22000]);
    expect(port).toBe(22000);
  });

  test('when the range cannot be read as a number, then Linux default start is assumed', () => {
    expect(ephemeralLow('nonsense')).toBe(32768);
    expect(ephemeralLow('1024 65535')).toBe(32768);
    expect(ephemeralLow('40000 60999')).toBe(40000);
  });

  test('when a port is in use, then it is not returned', async () => {
    const taken: Server = createServer();
    await new Promise<void>((resolve) => taken.listen(0, '127.0.0.1', resolve));
    const address = taken.address();
    if (address === null || typeof address === 'string') throw new Error('no address');
    try {
      const values = [address.port, address.port + 1];
      const port = await freePort({
        rangeText: `${address.port + 2} 60999`,
        random: () => ((values.shift() ?? address.port + 1) - 20000) / (address.port + 2 - 20000),
      });
      expect(port).toBe(address.port + 1);
    } finally {
      await new Promise((resolve) => taken.close(resolve));
    }
  });
});

describe('freePortBlock', () => {
  test('when a block is asked for, then all of it lies below the ephemeral range', async () => {
    const bases = await Promise.all(
      [0, 0.999999].map((value) =>
        freePortBlock(14, { rangeText: '32768 60999', random: () => value, isFree: async () => true }),
      ),
    );
    expect(bases).toEqual([20000, 32754]);
    expect(bases[1]! + 13).toBe(32767);
  });

  test('when one port of a block is taken, then another block is tried', async () => {
    const values = [0, 0.5];
    const port = await freePortBlock(3, {
      rangeText: '20010 60999',
      random: () => values.shift() ?? 0.9,
      isFree: async (candidate) => candidate !== 20002,
    });
    expect(port).toBe(20004);
  });

  test('when no block fits below the range, then it says so', async () => {
    await expect(freePortBlock(20, { rangeText: '20010 60999' })).rejects.toThrow(
      'no block of 20 ports fits between 20000 and the ephemeral range',
    );
  });
});
