const wonFormat = new Intl.NumberFormat('ko-KR');
const relative = new Intl.RelativeTimeFormat('ko', { numeric: 'auto' });

/** 12500 → '12,500원' */
export function won(amount: number): string {
  return `${wonFormat.format(amount)}원`;
}

/** 1200 → '1,200P' */
export function points(amount: number): string {
  return `${wonFormat.format(amount)}P`;
}

export function number(value: number): string {
  return wonFormat.format(value);
}

/** Korean relative time: '방금 전', '3분 전', '어제', '2주 전'. */
export function relativeTime(at: Date | string, now: Date = new Date()): string {
  const seconds = Math.round((new Date(at).getTime() - now.getTime()) / 1000);
  const abs = Math.abs(seconds);
  if (abs < 60) return '방금 전';
  const units: Array<[Intl.RelativeTimeFormatUnit, number]> = [
    ['minute', 60],
    ['hour', 3600],
    ['day', 86400],
    ['week', 604800],
    ['month', 2592000],
    ['year', 31536000],
  ];
  let chosen: [Intl.RelativeTimeFormatUnit, number] = units[0] as [Intl.RelativeTimeFormatUnit, number];
  for (const unit of units) if (abs >= unit[1]) chosen = unit;
  return relative.format(Math.trunc(seconds / chosen[1]), chosen[0]);
}
