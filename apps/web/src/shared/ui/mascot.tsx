/** "오굿이", our mascot: a round coral face with a sprout. Drawn here; no outside artwork. */
export function Mascot({ size = 40, title }: { size?: number; title?: string }) {
  return (
    <svg
      width={size}
      height={size}
      viewBox="0 0 64 64"
      role={title ? 'img' : undefined}
      aria-hidden={title ? undefined : true}
      aria-label={title}
    >
      <circle cx="32" cy="35" r="25" fill="#ff6b3d" />
      <ellipse cx="32" cy="42" rx="17" ry="11" fill="#ff8a63" />
      <circle cx="23" cy="32" r="3.6" fill="#1b1d22" />
      <circle cx="41" cy="32" r="3.6" fill="#1b1d22" />
      <circle cx="24.2" cy="30.8" r="1.1" fill="#fff" />
      <circle cx="42.2" cy="30.8" r="1.1" fill="#fff" />
      <ellipse cx="17" cy="40" rx="3.5" ry="2.2" fill="#ffb199" />
      <ellipse cx="47" cy="40" rx="3.5" ry="2.2" fill="#ffb199" />
      <path d="M25 41q7 6.5 14 0" stroke="#1b1d22" strokeWidth="3" fill="none" strokeLinecap="round" />
      <path d="M32 10.5v-3" stroke="#2bb673" strokeWidth="2.5" strokeLinecap="round" />
      <path d="M32 8q5-6 11-3-3 7-11 3z" fill="#2bb673" />
      <path d="M32 8q-5-5-10-2 3 6 10 2z" fill="#46c98a" />
    </svg>
  );
}
