import { runWhenIdle } from '../shared/idle-queue';

const BRAND_FAMILY = '"Pretendard Variable"';
/** Rounds of loading and warming, should the page's text keep needing new faces. */
const MAX_ROUNDS = 3;
/**
 * The most text laid out in one warm-up step: a step stays well under a long task (50 ms) on a slow phone. The
 * cost is less the characters than the faces they fall in: each subset face at each weight is instanced on
 * its first use.
 */
const WARM_STEP_CHARS = 100;
/**
 * A style's first step: a few characters. The brand font's first use at all (its set-up, ~15 ms of layout on a
 * fast machine, four times that on a slow phone) and at each weight (6–11 ms) is paid whatever the text, so no
 * other text is shaped in that step.
 */
const FIRST_STEP_CHARS = 4;

/**
 * Loads the faces for the text on screen and lays that text out in the brand font off screen, one small step
 * per idle moment (ADR 0142). A font's first use at each weight and size is what costs: on Lighthouse's slowed
 * phone, laying a page out in Pretendard cold was one layout of 250–340 ms. Warmed beforehand, the page
 * change that turns the brand font on (`brand-font.ts`) lays its text out without that first-use cost.
 */
export async function warmUpBrandFont(): Promise<void> {
  const warmed = new Map<string, Set<string>>();
  // The page may still be filling in (its data arriving): its new text can need new faces or styles.
  for (let round = 0; round < MAX_ROUNDS && document.fonts; round++) {
    // `textContent`, not `innerText`: the latter lays the page out on the spot, in this task, to know what shows.
    await document.fonts.load(`1em ${BRAND_FAMILY}`, document.body.textContent.slice(0, 4000)).catch(() => undefined);
    const fresh = notYetWarmed(textByStyle(document.body), warmed);
    if (fresh.size === 0) break;
    await warmUp(fresh);
  }
}

/**
 * What of `byStyle` has not been laid out yet, and records it as laid out: a new style's whole text (its
 * words shaped as the page will shape them), and for a style seen before only its new characters.
 */
export function notYetWarmed(byStyle: Map<string, string>, warmed: Map<string, Set<string>>): Map<string, string> {
  const fresh = new Map<string, string>();
  for (const [style, text] of byStyle) {
    const seen = warmed.get(style);
    const chars = [...text].filter((c) => c.trim() !== '');
    if (!seen) {
      fresh.set(style, text);
      warmed.set(style, new Set(chars));
      continue;
    }
    const added = [...new Set(chars.filter((c) => !seen.has(c)))];
    if (added.length === 0) continue;
    fresh.set(style, added.join(''));
    for (const c of added) seen.add(c);
  }
  return fresh;
}

/** The page's visible text grouped by the weight and size it is drawn in (`"700 15px"` → its text). */
export function textByStyle(root: HTMLElement): Map<string, string> {
  const byStyle = new Map<string, string>();
  const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    const text = node.textContent?.trim();
    if (!text || !node.parentElement) continue;
    const style = getComputedStyle(node.parentElement);
    const key = `${style.fontWeight} ${style.fontSize}`;
    const before = byStyle.get(key);
    byStyle.set(key, before ? `${before} ${text}` : text);
  }
  return byStyle;
}

/** Lays out each style's text in the brand font in a hidden box, one small step per idle moment. */
async function warmUp(byStyle: Map<string, string>): Promise<void> {
  const box = document.createElement('div');
  box.setAttribute('aria-hidden', 'true');
  box.dataset.brandFontWarmUp = '';
  // Kept out of the page's own layout: laying the box out never lays out anything else.
  box.style.cssText =
    'position:absolute;left:0;top:0;width:360px;height:0;overflow:hidden;visibility:hidden;contain:strict';
  document.body.append(box);
  try {
    for (const [style, text] of byStyle) {
      for (let at = 0; at < text.length; ) {
        const part = text.slice(at, at + (at === 0 ? FIRST_STEP_CHARS : WARM_STEP_CHARS));
        at += part.length;
        await whenIdle(() => {
          const span = document.createElement('span');
          span.style.font = `${style} ${BRAND_FAMILY}`;
          // Drawn by the stylesheet (tokens.css), not a text node: no search of the page's text finds it twice.
          span.dataset.text = part;
          // Laid out in the next frame, alone: one idle moment comes after each frame. (Forcing the layout here
          // would also lay out whatever else the page has changed since, in this same task.)
          box.append(span);
        });
      }
    }
  } finally {
    // After the frame that lays out the last step.
    await whenIdle(() => box.remove());
  }
}

const whenIdle = (job: () => void) =>
  new Promise<void>((resolve) =>
    runWhenIdle(() => {
      job();
      resolve();
    }),
  );
