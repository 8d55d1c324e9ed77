/**
 * HTTP answers for work that a managed pool rejects: problem details with 429 or 503 and
 * Retry-After.
 */
@NullMarked
package io.github.poolpilot.web;

import org.jspecify.annotations.NullMarked;
