package dev.legio.secrets;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import org.junit.jupiter.api.Test;

class SecretRedactorTest {

  @Test
  void aRegisteredSecretIsMaskedWhereverItOccurs() {
    SecretRedactor.register("q9-registered-value-77");
    assertThat(SecretRedactor.redact("key q9-registered-value-77, again:q9-registered-value-77x"))
        .isEqualTo("key ***, again:***x");
  }

  @Test
  void secretsOfTheEnvironmentAreRegisteredByTheirVariablesNames() {
    SecretRedactor.registerSecretsOf(
        Map.of("MY_SERVICE_TOKEN", "tok-env-123456", "HOME", "/home/some-user-dir"));
    assertThat(SecretRedactor.redact("t=tok-env-123456 h=/home/some-user-dir"))
        .isEqualTo("t=*** h=/home/some-user-dir");
  }

  @Test
  void credentialShapedTextIsMaskedThoughNeverRegistered() {
    assertThat(SecretRedactor.redact("Authorization: Bearer abcdefgh.ijkl"))
        .isEqualTo("Authorization: Bearer ***");
    assertThat(SecretRedactor.redact("bad key sk-ant-api03-AAAAbbbbCCCC_dd-ee"))
        .isEqualTo("bad key ***");
    assertThat(SecretRedactor.redact("{\"x-api-key\": \"zzzzzzzz\"} password=hunter22&a=1"))
        .isEqualTo("{\"x-api-key\": \"***\"} password=***&a=1");
  }

  @Test
  void theUserInfoOfAUrlIsMaskedWhereverAMessageWordsIt() {
    assertThat(
            SecretRedactor.redact(
                "OpenAI-compatible API at http://probeuser:URLSECRETpw@127.0.0.1:18899: error"))
        .isEqualTo("OpenAI-compatible API at http://***@127.0.0.1:18899: error");
    // A password holding an unescaped '@', a token given as the user name, any scheme.
    assertThat(SecretRedactor.redact("postgresql://legio:p@ss:w0rd@db.internal:5432/legio"))
        .isEqualTo("postgresql://***@db.internal:5432/legio");
    assertThat(SecretRedactor.redact("(HTTPS://ghp_abcdef123456@github.com/x)"))
        .isEqualTo("(HTTPS://***@github.com/x)");
    // An '@' after the host (path, query) or a mail address is no user-info.
    String plain = "see http://host:8080/u@v?to=a@b.c#x@y, mail caesar@roma.it, http://h/";
    assertThat(SecretRedactor.redact(plain)).isEqualTo(plain);
    String once = SecretRedactor.redact("at https://u:secretpw@host and http://u2:pw2@h2/p");
    assertThat(once).isEqualTo("at https://***@host and http://***@h2/p");
    assertThat(SecretRedactor.redact(once)).isEqualTo(once);
  }

  @Test
  void textWithoutSecretsIsUnchangedAndRedactingTwiceChangesNothingMore() {
    String plain = "max_tokens: 1024, input_tokens=55, task-runner ok; Bearer ***";
    assertThat(SecretRedactor.redact(plain)).isEqualTo(plain);
    String once = SecretRedactor.redact("Bearer abcdefghijk and sk-proj-0123456789abcdef");
    assertThat(SecretRedactor.redact(once)).isEqualTo(once);
    assertThat(SecretRedactor.holdsSecret(plain)).isFalse();
  }

  @Test
  void shortValuesAreNotRegistered() {
    SecretRedactor.register("abc");
    assertThat(SecretRedactor.redact("abc abcd")).isEqualTo("abc abcd");
  }
}
