import { Link } from 'react-router-dom';
import { Logo } from './brand';

/** The public pages' header (spec §2 landing header: Questions?, Pricing, Contact, Login). */
export function SiteHeader() {
  return (
    <header className="top-bar site-header">
      <div className="top-bar__inner">
        <Logo />
        <nav aria-label="Main" className="site-header__nav">
          <a href="/#schedule-call" className="site-header__link site-header__link--wide">
            Questions?
          </a>
          <Link to="/pricing" className="site-header__link">
            Pricing
          </Link>
          <a href="/#contact" className="site-header__link site-header__link--wide">
            Contact
          </a>
          <Link to="/login" className="btn btn--secondary btn--small">
            Login
          </Link>
        </nav>
      </div>
    </header>
  );
}

export function SiteFooter() {
  return (
    <footer className="site-footer">
      <p>© 2025 WarmLine. All rights reserved.</p>
    </footer>
  );
}
