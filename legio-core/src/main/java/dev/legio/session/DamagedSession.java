package dev.legio.session;

import dev.legio.errors.Quoted;
import java.util.Objects;

/**
 * A row of the session store that cannot be read as a {@link SessionRecord}: a value in it is not
 * one Legio writes (a state other than {@code active} or {@code closed}, previous back-end ids that
 * are not a JSON array of strings, a session id that is not a UUID, a timestamp that is not one, a
 * required value missing), because someone edited the table by hand or the file was damaged.
 *
 * <p>What becomes of it is {@link SessionListing}'s rule (listings leave it out and name it) and
 * {@link SessionLifecycle}'s (its owner's next turn replaces it with a new session; a reset or a
 * close deletes it).
 *
 * @param owner the row's owner, as stored
 * @param sessionId the row's session id as stored; null when it has none
 * @param problem what is wrong with the row, naming the column and quoting its value
 * @param rebuilds the row's count of rebuilds when it can be read, else 0
 * @param database the kind of database the row is in ({@code sqlite}, {@code postgres})
 */
public record DamagedSession(
    String owner, String sessionId, String problem, long rebuilds, String database) {

  public DamagedSession {
    Objects.requireNonNull(owner, "owner");
    Objects.requireNonNull(problem, "problem");
    Objects.requireNonNull(database, "database");
  }

  /**
   * What to do about it, for people: {@code pullo's next turn starts a new session in its place;
   * `legio reset pullo` does so now, or delete the row: DELETE FROM sessions WHERE owner =
   * 'pullo'}.
   */
  public String fix() {
    String name = Quoted.of(owner);
    return name
        + "'s next turn starts a new session in its place (the earlier conversation is not"
        + " resumed; the log's history is carried over as for any new session); `legio reset "
        + name
        + "` clears the row now, or delete it: DELETE FROM sessions WHERE owner = '"
        + name.replace("'", "''")
        + "'";
  }

  /** One line for people: which row, what is wrong, what to do. */
  public String describe() {
    return "the session record of '"
        + Quoted.of(owner)
        + "'"
        + (sessionId == null ? "" : " (session " + Quoted.of(sessionId) + ")")
        + " in the "
        + database
        + " database is damaged: "
        + problem
        + ". "
        + fix();
  }
}
