interface LogoMarkProps {
  className?: string;
  size?: number;
}

/** The product logo: a meter dial. Decorative (the product name is always next to it or in a label). */
export function LogoMark({ className, size = 64 }: LogoMarkProps) {
  return (
    <svg
      className={className}
      width={size}
      height={size}
      viewBox="0 0 64 64"
      aria-hidden="true"
      focusable="false"
    >
      <rect width="64" height="64" rx="14" fill="#1864ab" />
      <circle cx="32" cy="34" r="19" fill="none" stroke="#fff" strokeWidth="5" />
      <path d="M32 34 43 24" stroke="#ffd43b" strokeWidth="5" strokeLinecap="round" />
      <circle cx="32" cy="34" r="4" fill="#fff" />
    </svg>
  );
}
