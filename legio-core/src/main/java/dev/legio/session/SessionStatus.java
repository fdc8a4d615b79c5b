package dev.legio.session;

import java.time.Duration;

/**
 * One agent's or channel's session as {@code /status} and {@code legio status} show it.
 *
 * @param owner the agent or channel
 * @param activity {@code idle}, {@code working} or {@code error} in this process; {@code idle} for
 *     a session this process does not hold
 * @param record the stored session record; null when the owner never had a session
 * @param age how long the current session has existed; null without an active session
 */
public record SessionStatus(
    String owner, String description, String activity, SessionRecord record, Duration age) {}
