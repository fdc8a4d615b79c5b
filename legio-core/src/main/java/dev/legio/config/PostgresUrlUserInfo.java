package dev.legio.config;

import dev.legio.secrets.SecretRedactor;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A PostgreSQL URL that carries a user name or password before its host ({@code
 * jdbc:postgresql://legio:secret@db:5432/legio}, the form of libpq and {@code DATABASE_URL}) is
 * refused.
 *
 * <p>Rule: PostgreSQL's JDBC driver has no such form: it takes {@code legio:secret@db} for a host
 * name, fails to find it, and says so with the password in its message, which would reach the
 * console and the log. So before anything connects, the password is registered with the {@link
 * SecretRedactor} (nothing printed can hold it), and the error shows the URL with its user-info
 * masked and says where the user and the password go instead: {@code [praetorium] postgres_user}
 * (or {@code ?user=}) and the variable {@code postgres_password_env} names ({@code
 * LEGIO_DB_PASSWORD}).
 */
final class PostgresUrlUserInfo {
  private static final Pattern USER_INFO =
      Pattern.compile("^(jdbc:postgresql://)([^/?#]*)@", Pattern.CASE_INSENSITIVE);

  private PostgresUrlUserInfo() {}

  /**
   * Refuses {@code url} when it has user-info.
   *
   * @param where what set it, for the error: {@code FILE: [praetorium] postgres_url} or {@code
   *     environment variable LEGIO_DB_URL}
   * @throws ConfigException when it has
   */
  static void refuse(String url, String where) {
    Matcher m = USER_INFO.matcher(url);
    if (!m.find()) {
      return;
    }
    String userInfo = m.group(2);
    int colon = userInfo.indexOf(':');
    if (colon >= 0) {
      SecretRedactor.register(userInfo.substring(colon + 1));
    }
    throw new ConfigException(
        where
            + ": PostgreSQL's JDBC driver takes no user or password before the host ('"
            + m.group(1)
            + "***@"
            + url.substring(m.end())
            + "'): write jdbc:postgresql://HOST:PORT/DATABASE, the user in [praetorium]"
            + " postgres_user, and the password in the environment variable "
            + PraetoriumSettings.DEFAULT_PASSWORD_ENV
            + " (or the one postgres_password_env names)");
  }
}
