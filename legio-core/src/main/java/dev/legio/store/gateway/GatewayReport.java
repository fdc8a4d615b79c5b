package dev.legio.store.gateway;

import java.time.Instant;

/**
 * A gateway's health as the serving process last stored it, for {@code legio status} in another
 * process.
 *
 * @param gateway the platform ({@code telegram})
 * @param state {@code connected}, {@code waiting}, {@code failing} or {@code stopped}
 * @param detail why, in words a user can act on (never a secret); empty when connected
 * @param messagesIn platform messages taken in since the serving process started
 * @param messagesOut messages sent to the platform since then
 * @param reportedAt when the serving process stored this
 */
public record GatewayReport(
    String gateway,
    String state,
    String detail,
    long messagesIn,
    long messagesOut,
    Instant reportedAt) {}
