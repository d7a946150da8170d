import { josa } from 'es-hangul';

/** The particle pairs a sentence may need after an inserted noun. */
export type Particle = '을/를' | '이/가' | '은/는' | '와/과' | '으로/로';

/** A trailing parenthetical ('45,000원(45.9%)') is not read aloud before the particle: the word before it is. */
const TRAILING_NOTE = /\s*\([^()]*\)$/;

/**
 * The noun followed by the particle its last syllable takes (a final consonant: 을, 이, 은, 과, 으로; none: 를,
 * 가, 는, 와, 로; a final ㄹ takes 로 too), so an inserted noun never reads '음악감상을(를)' or '골드(으)로'.
 * Every sentence that inserts a noun uses this, on the server and in the web app (the console too).
 */
export function withParticle(noun: string, particle: Particle): string {
  return `${noun}${josa.pick(noun.replace(TRAILING_NOTE, ''), particle)}`;
}
