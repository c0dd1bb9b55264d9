import { describe, expect, it } from 'vitest';
import { logIn, useE2E, waitForResetLink } from './harness';
import { waitForPath } from './waits';

/** The account screens against the real system in headless Chromium (issue 3). */
const e2e = useE2E();

describe('logging in', () => {
  it("when an admin logs in (the system's first sign-in of that admin), then they land on /admin with their name and a first welcome toast", async () => {
    const { page, system } = e2e;
    await logIn(page, system.admin.username, system.admin.password);
    await waitForPath(page, '/admin');
    await page.getByRole('heading', { name: 'Admin Panel' }).waitFor();
    await page.getByText('Login Successful', { exact: true }).waitFor();
    await page.getByText('Welcome, Ada!', { exact: true }).waitFor();
    expect(await page.getByTestId('current-user-name').textContent()).toBe('Ada Admin');
    const stored = await page.evaluate(() => JSON.parse(localStorage.getItem('user') ?? 'null') as { username: string; isAdmin: boolean });
    expect(stored).toMatchObject({ username: system.admin.username, isAdmin: true });

    await page.getByRole('link', { name: 'Transfer Orders', exact: true }).click();
    await waitForPath(page, '/admin-orders');
    await page.getByRole('heading', { name: 'Transfer Orders', level: 1 }).waitFor();
  });

  it('when a customer logs in, then they land on /dashboard', async () => {
    const { page, system } = e2e;
    await logIn(page, system.customer.username, system.customer.password);
    await waitForPath(page, '/dashboard');
    await page.getByRole('heading', { name: `Welcome, ${system.customer.firstName}` }).waitFor();
    expect(await page.getByTestId('current-user-name').textContent()).toBe('Carla Customer');
  });

  it('when the password is wrong, then it shows Login Failed with the server message and stays on /login', async () => {
    const { page, system } = e2e;
    await logIn(page, system.customer.username, 'not the password');
    await page.getByText('Login Failed', { exact: true }).waitFor();
    await page.getByText('Invalid credentials', { exact: true }).waitFor();
    expect(e2e.pathname()).toBe('/login');
  });

  it('when the fields are empty, then it shows the spec messages and sends nothing', async () => {
    const { page } = e2e;
    let loginCalls = 0;
    page.on('request', (request) => {
      if (request.url().endsWith('/api/login')) loginCalls += 1;
    });
    await page.goto('/login');
    await page.getByRole('button', { name: 'Sign In' }).click();
    await page.getByText('Username is required', { exact: true }).waitFor();
    await page.getByText('Password is required', { exact: true }).waitFor();
    expect(loginCalls).toBe(0);
  });

  it('when the login form is used with the keyboard alone, then the customer reaches /dashboard', async () => {
    const { page, system } = e2e;
    await page.goto('/login');
    await page.getByRole('heading', { name: 'Welcome Back' }).waitFor();
    // Tab from the top of the page until the username field has focus.
    for (let i = 0; i < 10; i += 1) {
      await page.keyboard.press('Tab');
      if (await page.evaluate(() => document.activeElement?.getAttribute('name') === 'username')) break;
    }
    expect(await page.evaluate(() => document.activeElement?.getAttribute('name'))).toBe('username');
    await page.keyboard.type(system.customer.username);
    await page.keyboard.press('Tab');
    expect(await page.evaluate(() => document.activeElement?.getAttribute('name'))).toBe('password');
    await page.keyboard.type(system.customer.password);
    await page.keyboard.press('Enter');
    await waitForPath(page, '/dashboard');
    await page.getByRole('heading', { name: `Welcome, ${system.customer.firstName}` }).waitFor();
  });
});

describe('guards', () => {
  it('when a customer opens /admin, then they are sent to /dashboard', async () => {
    const { page, system } = e2e;
    await logIn(page, system.customer.username, system.customer.password);
    await waitForPath(page, '/dashboard');
    await page.goto('/admin');
    await waitForPath(page, '/dashboard');
    await page.getByRole('heading', { name: `Welcome, ${system.customer.firstName}` }).waitFor();
  });

  it('when nobody is logged in and /dashboard or /admin is opened, then the login page shows', async () => {
    const { page } = e2e;
    await page.goto('/dashboard');
    await waitForPath(page, '/login');
    await page.goto('/admin-orders');
    await waitForPath(page, '/login');
    await page.getByRole('heading', { name: 'Welcome Back' }).waitFor();
  });

  it('when a logged-in user presses Logout, then the session ends and /dashboard needs a login again', async () => {
    const { page, system } = e2e;
    await logIn(page, system.customer.username, system.customer.password);
    await waitForPath(page, '/dashboard');
    // At 1280 px the dashboard's one Logout is the sidebar's (issue 17: the header's shows on phones).
    await page.getByRole('link', { name: 'Logout' }).click();
    await waitForPath(page, '/login');
    expect(await page.evaluate(() => localStorage.getItem('user'))).toBeNull();
    await page.goto('/dashboard');
    await waitForPath(page, '/login');
  });
});

describe('password reset', () => {
  it('when a user asks for a reset, then the e-mailed link lets them set a new password and log in with it', async () => {
    const { page, system } = e2e;
    await page.goto('/login');
    await page.getByRole('link', { name: 'Forgot your password?' }).click();
    await waitForPath(page, '/forgot-password');
    await page.getByLabel('Email', { exact: true }).fill(system.customer.email);
    await page.getByRole('button', { name: 'Send Reset Link' }).click();
    await page.getByRole('heading', { name: 'Check Your Email' }).waitFor();
    await page.getByRole('button', { name: 'Try Again' }).waitFor();
    await page.getByRole('link', { name: 'Back to Login' }).waitFor();

    const link = await waitForResetLink(system.mailDir, system.customer.email);
    expect(new URL(link).origin).toBe(system.url);
    await page.goto(link);
    await page.getByRole('heading', { name: 'Reset Your Password' }).waitFor();

    // The form checks before it sends.
    await page.getByLabel('New Password', { exact: true }).fill('short');
    await page.getByLabel('Confirm New Password', { exact: true }).fill('short');
    await page.getByRole('button', { name: 'Reset Password' }).click();
    await page.getByText('Password must be at least 8 characters', { exact: true }).waitFor();
    await page.getByLabel('New Password', { exact: true }).fill('a brand new password');
    await page.getByLabel('Confirm New Password', { exact: true }).fill('a different password');
    await page.getByRole('button', { name: 'Reset Password' }).click();
    await page.getByText("Passwords don't match", { exact: true }).waitFor();

    const newPassword = 'a brand new password';
    await page.getByLabel('Confirm New Password', { exact: true }).fill(newPassword);
    await page.getByRole('button', { name: 'Reset Password' }).click();
    await page.getByRole('link', { name: 'Continue to Login' }).click();
    await waitForPath(page, '/login');

    await logIn(page, system.customer.username, system.customer.password);
    await page.getByText('Login Failed', { exact: true }).waitFor();
    await logIn(page, system.customer.username, newPassword);
    await waitForPath(page, '/dashboard');

    // The link is single use.
    await page.goto(link);
    await page.getByRole('heading', { name: 'Invalid or Expired Link' }).waitFor();
    await page.getByRole('link', { name: 'Request New Reset Link' }).click();
    await waitForPath(page, '/forgot-password');
    system.customer.password = newPassword;
  });

  it('when the reset link has no token, then it says Invalid Reset Link', async () => {
    const { page } = e2e;
    await page.goto('/reset-password');
    await page.getByRole('heading', { name: 'Invalid Reset Link' }).waitFor();
  });

  it('when the e-mail address is not valid, then the forgot form says so', async () => {
    const { page } = e2e;
    await page.goto('/forgot-password');
    await page.getByLabel('Email', { exact: true }).fill('not-an-address');
    await page.getByRole('button', { name: 'Send Reset Link' }).click();
    await page.getByText('Please enter a valid email address', { exact: true }).waitFor();
  });
});

describe('routing', () => {
  it('when an unknown path is opened, then it shows 404 Page Not Found', async () => {
    const { page } = e2e;
    for (const unknown of ['/no-such-page', '/some/deeper/path']) {
      const response = await page.goto(unknown);
      expect(response?.status()).toBe(200); // the SPA's history fallback; the page itself says 404
      await page.getByRole('heading', { name: '404 Page Not Found' }).waitFor();
    }
  });

  it('when /get-started is opened, then the browser lands on /survey', async () => {
    const { page } = e2e;
    await page.goto('/get-started');
    await waitForPath(page, '/survey');
  });

  it('when the landing page loads, then neither dashboard nor admin code is downloaded', async () => {
    const { page } = e2e;
    const scripts: string[] = [];
    page.on('request', (request) => {
      if (request.resourceType() === 'script') scripts.push(new URL(request.url()).pathname);
    });
    await page.goto('/', { waitUntil: 'networkidle' });
    await page.getByRole('link', { name: 'Get Started Today' }).waitFor();
    expect(scripts.some((s) => s.includes('landing-page'))).toBe(true);
    expect(scripts.filter((s) => /dashboard|admin|login/.test(s))).toEqual([]);
  });
});
