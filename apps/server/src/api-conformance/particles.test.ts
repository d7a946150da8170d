import { withParticle } from '@ohgood/contract/particles';
import { describe, expect, it } from 'vitest';

describe('particles after an inserted noun', () => {
  it('follow the last syllable: a final consonant takes 을/이/은/과, none takes 를/가/는/와', () => {
    expect(withParticle('음악감상', '을/를')).toBe('음악감상을');
    expect(withParticle('게임', '을/를')).toBe('게임을');
    expect(withParticle('독서', '을/를')).toBe('독서를');
    expect(withParticle('영화', '이/가')).toBe('영화가');
    expect(withParticle('운동', '이/가')).toBe('운동이');
    expect(withParticle('포인트', '은/는')).toBe('포인트는');
    expect(withParticle('연장', '은/는')).toBe('연장은');
    expect(withParticle('식비', '와/과')).toBe('식비와');
    expect(withParticle('쇼핑', '와/과')).toBe('쇼핑과');
  });

  it('으로/로: a final consonant takes 으로, none or a final ㄹ takes 로', () => {
    expect(withParticle('플래티넘', '으로/로')).toBe('플래티넘으로');
    expect(withParticle('실버', '으로/로')).toBe('실버로');
    expect(withParticle('골드', '으로/로')).toBe('골드로');
    expect(withParticle('서울', '으로/로')).toBe('서울로');
  });

  it('reads past a trailing parenthetical: 45,000원(45.9%) takes 을', () => {
    expect(withParticle('45,000원(45.9%)', '을/를')).toBe('45,000원(45.9%)을');
    expect(withParticle('커피(2잔)', '이/가')).toBe('커피(2잔)가');
  });
});
