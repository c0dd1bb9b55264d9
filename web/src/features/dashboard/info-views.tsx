import { useSiteConfig } from '../../lib/site-config';
import { Spinner } from '../../components/spinner';
import { useDashboardConfig } from './api';

/** Facebook Ads Course (spec §2): only the 'Coming Soon' message. */
export function FacebookCourseView() {
  return (
    <section className="dash-view" aria-labelledby="fb-title">
      <h1 id="fb-title" className="view-header__title">
        Facebook Ads Course
      </h1>
      <div className="card dash-note">
        <p className="dash-note__big">Coming Soon</p>
        <p>Our course on running Facebook ads for insurance leads is being recorded.</p>
      </div>
    </section>
  );
}

/**
 * Training Videos (spec §2): the embedded videos from configuration and a note that more will
 * come. A deployment without TRAINING_VIDEOS has none yet: it says so instead of showing
 * players of videos that do not exist (issue 17 item 8).
 */
export function TrainingVideosView() {
  const config = useDashboardConfig();
  const videos = config.data?.trainingVideos ?? [];
  return (
    <section className="dash-view" aria-labelledby="videos-title">
      <h1 id="videos-title" className="view-header__title">
        Training Videos
      </h1>
      <p className="view-header__lead">Short lessons on working leads and live transfers.</p>
      {config.isPending ? (
        <Spinner label="Loading videos…" showLabel />
      ) : config.isError ? (
        <p role="alert">The videos could not be loaded. Please try again later.</p>
      ) : videos.length === 0 ? (
        <div className="card dash-note">
          <p className="dash-note__big">Videos are on their way</p>
          <p>Our training videos are being recorded. They will appear here as soon as they are ready.</p>
        </div>
      ) : (
        <>
          <ul className="video-grid">
            {videos.map((video) => (
              <li key={video.embedUrl} className="video-card">
                <div className="video-card__frame">
                  <iframe
                    src={video.embedUrl}
                    title={video.title}
                    loading="lazy"
                    allow="accelerometer; encrypted-media; gyroscope; picture-in-picture; fullscreen"
                    allowFullScreen
                    referrerPolicy="strict-origin-when-cross-origin"
                  />
                </div>
                <p className="video-card__title">{video.title}</p>
              </li>
            ))}
          </ul>
          <p className="dash-more">More training videos will be added soon.</p>
        </>
      )}
    </section>
  );
}

function SupportEmail() {
  const site = useSiteConfig();
  const email = site.data?.supportEmail;
  if (!email) return <span>our support team</span>;
  return (
    <a className="link" href={`mailto:${email}`}>
      {email}
    </a>
  );
}

/** Support (spec §2): contact support by e-mail. */
export function SupportView() {
  return (
    <section className="dash-view" aria-labelledby="support-title">
      <h1 id="support-title" className="view-header__title">
        Contact Support
      </h1>
      <div className="card dash-note">
        <p>
          Questions about your leads, an order or your account? E-mail us at <SupportEmail /> and we will get back to you
          within one business day.
        </p>
      </div>
    </section>
  );
}
