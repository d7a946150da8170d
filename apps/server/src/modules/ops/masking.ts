/**
 * Personal data as the console shows it by default (docs/rules/operations.md#O4); "보기" reveals one field,
 * audited. The account number uses the app's own mask (`maskAccount`, ****6789).
 */

/** 김오굿 → 김*굿, 김굿 → 김*, 남궁민수 → 남**수. */
export function maskName(name: string): string {
  const chars = [...name];
  if (chars.length <= 1) return '*';
  if (chars.length === 2) return `${chars[0]}*`;
  return `${chars[0]}${'*'.repeat(chars.length - 2)}${chars.at(-1)}`;
}

/** demo@ohgood.kr → de**@ohgood.kr (the domain stays: it says where to look, not who). */
export function maskEmail(email: string): string {
  const at = email.lastIndexOf('@');
  if (at < 0) return '**';
  const local = email.slice(0, at);
  return `${local.slice(0, Math.min(2, Math.max(1, local.length - 1)))}**${email.slice(at)}`;
}
