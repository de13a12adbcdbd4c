import { readMemory } from './memory-log';

describe('readMemory', () => {
  it("when read, then it names this thread's heap spaces and what of the heap is in use", () => {
    const reading = readMemory();
    expect(Object.keys(reading.spaces)).toEqual(expect.arrayContaining(['new_space', 'old_space', 'code_space']));
    expect(reading.heapUsedMb).toBeLessThanOrEqual(reading.heapTotalMb);
    expect(reading.heapTotalMb).toBeLessThanOrEqual(reading.rssMb);
  });
});
