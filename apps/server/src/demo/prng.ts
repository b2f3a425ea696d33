/** A deterministic source of numbers in [0, 1): the same seed and stream always give the same sequence. */
export interface Rng {
  /** Uniform in [0, 1). */
  next(): number;
  /** Uniform in [min, max). */
  between(min: number, max: number): number;
  /** Uniform integer in [min, max] (both inclusive). */
  int(min: number, max: number): number;
}

// FNV-1a: turns a stream name into 32 bits, so each meter gets its own independent stream and
// adding a meter to the demo does not shift the numbers every other meter draws.
function hashName(name: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < name.length; i += 1) {
    h ^= name.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}

// splitmix32 spreads a small seed over all bits of sfc32's state (a raw seed of 1 or 2 would
// otherwise start the generators in nearly identical states).
function splitmix32(state: number): () => number {
  let s = state >>> 0;
  return () => {
    s = (s + 0x9e3779b9) >>> 0;
    let z = s;
    z = Math.imul(z ^ (z >>> 16), 0x21f0aaad);
    z = Math.imul(z ^ (z >>> 15), 0x735a2d97);
    return (z ^ (z >>> 15)) >>> 0;
  };
}

/**
 * sfc32 (Chris Doty-Humphrey's Small Fast Counting generator): 128 bits of state, passes
 * PractRand, only 32-bit integer operations, so results are identical on every JS engine.
 * Never Math.random: the demo must be reproducible byte for byte.
 */
export function createRng(seed: number, stream: string): Rng {
  const mix = splitmix32((seed >>> 0) ^ hashName(stream));
  let a = mix();
  let b = mix();
  let c = mix();
  let d = mix();
  const nextUint = () => {
    const t = (((a + b) >>> 0) + d) >>> 0;
    d = (d + 1) >>> 0;
    a = b ^ (b >>> 9);
    b = (c + (c << 3)) >>> 0;
    c = (c << 21) | (c >>> 11);
    c = (c + t) >>> 0;
    return t;
  };
  // Warm-up: the first outputs of sfc32 are weakly mixed.
  for (let i = 0; i < 12; i += 1) nextUint();
  const next = () => nextUint() / 4_294_967_296;
  return {
    next,
    between: (min, max) => min + (max - min) * next(),
    int: (min, max) => min + Math.floor(next() * (max - min + 1)),
  };
}
