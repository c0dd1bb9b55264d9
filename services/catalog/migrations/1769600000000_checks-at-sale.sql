-- Up Migration
-- Issue 24: the do-not-call checks a lead or call-back passed when it reached its buyer, kept
-- with the sale for the buyer's consent evidence pack. The suppression list is checked by every
-- sale (a suppressed phone is never sold), so its check is the sale's own time. The national
-- DNC registry is checked against the newest upload covering the phone's area code:
-- dnc_registry_checked_on is that upload's date (NULL: no registry covered the area code then),
-- dnc_registry_match whether the phone was on it (NULL when not checked).
ALTER TABLE aged_leads
  ADD COLUMN dnc_registry_checked_on date,
  ADD COLUMN dnc_registry_match boolean,
  ADD CONSTRAINT aged_leads_dnc_check_complete CHECK ((dnc_registry_checked_on IS NULL) = (dnc_registry_match IS NULL));
ALTER TABLE callback_opportunities
  ADD COLUMN dnc_registry_checked_on date,
  ADD COLUMN dnc_registry_match boolean,
  ADD CONSTRAINT callback_opportunities_dnc_check_complete CHECK ((dnc_registry_checked_on IS NULL) = (dnc_registry_match IS NULL));

-- Down Migration
ALTER TABLE callback_opportunities DROP COLUMN dnc_registry_match, DROP COLUMN dnc_registry_checked_on;
ALTER TABLE aged_leads DROP COLUMN dnc_registry_match, DROP COLUMN dnc_registry_checked_on;
