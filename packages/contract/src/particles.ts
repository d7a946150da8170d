import { josa } from 'es-hangul';

/** The particle pairs a sentence may need after an inserted noun. */
export type Particle = '을/를' | '이/가' | '은/는' | '와/과';

/** A trailing parenthetical ('45,000원(45.9%)') is not read aloud before the particle: the word before it is. */
const TRAILING_NOTE = /\s*\([^()]*\)$/;

/**
 * The noun followed by the particle its last syllable takes (a final consonant: 을, 이, 은, 과; none: 를, 가,
 * 는, 와), so an inserted noun never reads '음악감상을(를)'. Every sentence that inserts a noun uses this.
 */
export function withParticle(noun: string, particle: Particle): string {
  return `${noun}${josa.pick(noun.replace(TRAILING_NOTE, ''), particle)}`;
}
