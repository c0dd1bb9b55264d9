import { Link } from 'react-router-dom';

const PRODUCT_NAME = 'WarmLine';

export function Logo({ to = '/' }: { to?: string }) {
  return (
    <Link to={to} className="logo" aria-label={`${PRODUCT_NAME} home`}>
      <svg width="28" height="28" viewBox="0 0 32 32" aria-hidden="true">
        <rect width="32" height="32" rx="8" fill="currentColor" />
        <path d="M7 11l4 11 5-9 5 9 4-11" stroke="#fff" strokeWidth="3" fill="none" strokeLinejoin="round" strokeLinecap="round" />
      </svg>
      <span className="logo__name">{PRODUCT_NAME}</span>
    </Link>
  );
}
