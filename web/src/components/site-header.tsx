import { useRef, type MouseEvent } from 'react';
import { Link } from 'react-router-dom';
import { Logo } from './brand';

/**
 * The public pages' header (spec §2 landing header: Questions?, Pricing, Contact, Login). On a
 * phone Questions? and Contact do not fit beside the logo, so they sit in a Menu with Pricing (issue 17; Login stays a button): a
 * <details> disclosure, which opens in the prerendered page before (or without) JavaScript.
 * `signedIn`: the page has checked the session (the prerendered pages do not), so Login becomes Dashboard.
 */
export function SiteHeader({ signedIn = false }: { signedIn?: boolean } = {}) {
  const menu = useRef<HTMLDetailsElement>(null);
  // A chosen link closes the menu (an in-page anchor would otherwise leave it open over the page).
  const closeOnLink = (event: MouseEvent<HTMLElement>) => {
    if ((event.target as HTMLElement).closest('a') && menu.current) menu.current.open = false;
  };
  return (
    <header className={signedIn ? 'top-bar site-header site-header--signed-in' : 'top-bar site-header'}>
      <div className="top-bar__inner">
        <Logo />
        <details ref={menu} className="site-header__menu">
          <summary className="site-header__menu-button">Menu</summary>
          <nav aria-label="Menu" className="site-header__menu-links" onClick={closeOnLink}>
            <a href="/#schedule-call">Questions?</a>
            <Link to="/pricing">Pricing</Link>
            <a href="/#contact">Contact</a>
          </nav>
        </details>
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
          {/* A page that knows its visitor is signed in (issue 22) offers their dashboard, not a login. */}
          {signedIn ? (
            <Link to="/dashboard" className="btn btn--secondary btn--small">
              Dashboard
            </Link>
          ) : (
            <Link to="/login" className="btn btn--secondary btn--small">
              Login
            </Link>
          )}
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
