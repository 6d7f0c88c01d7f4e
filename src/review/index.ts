// The review module's face: what other modules may use. Nothing else of review/ is imported from outside it.

export { REVIEW_NOTES } from './erasure.ts';
export { createReview, resolveAsPanel, resolveAsReviewer } from './review.ts';
export { invocationViews, rogueViewsAt } from './event-views.ts';
