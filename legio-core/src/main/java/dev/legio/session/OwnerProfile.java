package dev.legio.session;

import dev.legio.agents.AgentProfile;
import java.util.List;

/**
 * What a turn needs to know about its owner, resolved afresh for every turn by {@link
 * OwnerProfiles} (a prompt file edited between two turns takes effect at the second).
 *
 * @param owner whose profile it is
 * @param description the agent's description (the legatus's for a channel), for the reply header
 * @param shape what its session is opened with
 * @param limits its history window and rebuild limits
 * @param centuriones for the legatus, the centuriones whose status each of its turns carries; empty
 *     otherwise
 */
public record OwnerProfile(
    Owner owner,
    String description,
    SessionShape shape,
    SessionLimits limits,
    List<AgentProfile> centuriones) {}
