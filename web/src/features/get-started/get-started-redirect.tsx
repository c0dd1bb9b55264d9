import { Navigate } from 'react-router-dom';

/** The small redirect screen of spec §2: straight to the survey. */
export function GetStartedRedirect() {
  return <Navigate to="/survey" replace />;
}
