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
