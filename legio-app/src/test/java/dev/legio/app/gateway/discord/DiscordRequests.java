package dev.legio.app.gateway.discord;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.legio.app.gateway.GatewayFixture;
import dev.legio.app.gateway.webhook.ReplyOutbox;
import dev.legio.app.gateway.webhook.SharedOwedReplies;
import java.nio.charset.StandardCharsets;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.PrivateKey;
import java.security.Signature;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.List;

/**
 * Discord's side of the tests: interactions as Discord sends them, signed with an Ed25519 key pair
 * whose public key is the configured {@code public_key}, and the gateway under test.
 */
final class DiscordRequests {
  private static final ObjectMapper JSON = new ObjectMapper();

  /** How long the test gateway's claims on the /asks it took in last: a round each second. */
  static final Duration CLAIM = Duration.ofSeconds(3);

  private DiscordRequests() {}

  static KeyPair generate() {
    try {
      return KeyPairGenerator.getInstance("Ed25519").generateKeyPair();
    } catch (Exception e) {
      throw new IllegalStateException(e);
    }
  }

  /** The raw 32-byte public key in hex, as the Developer Portal shows it. */
  static String publicKeyHex(KeyPair pair) {
    byte[] der = pair.getPublic().getEncoded();
    return HexFormat.of().formatHex(Arrays.copyOfRange(der, der.length - 32, der.length));
  }

  /** The [gateways.discord] of legio.toml, pointing at {@code apiUrl}. */
  static String configure(String toml, String apiUrl, String publicKey) {
    return toml.replace(
            "application_id = \"\"", "application_id = \"" + FakeDiscord.APPLICATION + "\"")
        .replace("public_key = \"\"", "public_key = \"" + publicKey + "\"")
        .replace("api_url = \"https://discord.com/api/v10\"", "api_url = \"" + apiUrl + "\"");
  }

  /** The Discord gateway as {@code legio serve} builds it, with the test's back-off and sleeps. */
  static GatewayFixture.Gateways gateway(
      ReplyOutbox.Backoff backoff, GatewayFixture.Sleeps sleeps) {
    return (app, doors, deliveries) ->
        List.of(
            new DiscordGateway(
                app.config().discord(),
                doors,
                app.store().gatewayInbox(),
                CLAIM,
                new SharedOwedReplies(
                    app.store().gatewayState(),
                    app.store().jobLeases(),
                    DiscordGateway.NAME,
                    Duration.ofSeconds(30),
                    Clock.systemUTC()),
                backoff,
                Clock.systemUTC(),
                sleeps));
  }

  static String sign(PrivateKey key, String timestamp, String body) throws Exception {
    Signature signer = Signature.getInstance("Ed25519");
    signer.initSign(key);
    signer.update((timestamp + body).getBytes(StandardCharsets.UTF_8));
    return HexFormat.of().formatHex(signer.sign());
  }

  /** Discord's signature headers for {@code body}, signed now with {@code key}. */
  static String[] signed(PrivateKey key, String body) throws Exception {
    String now = Long.toString(Instant.now().getEpochSecond());
    return new String[] {"X-Signature-Ed25519", sign(key, now, body), "X-Signature-Timestamp", now};
  }

  /** An {@code /ask} interaction in a guild channel, as Discord sends it. */
  static String ask(String id, String token, String channel, String text) {
    ObjectNode body =
        JSON.createObjectNode()
            .put("id", id)
            .put("application_id", FakeDiscord.APPLICATION)
            .put("type", 2)
            .put("token", token)
            .put("version", 1)
            .put("guild_id", "1111")
            .put("channel_id", channel);
    ObjectNode user =
        body.putObject("member")
            .putObject("user")
            .put("id", "42")
            .put("username", "ada")
            .put("global_name", "Ada");
    user.put("discriminator", "0");
    ObjectNode data = body.putObject("data").put("id", "555").put("name", "ask").put("type", 1);
    data.putArray("options").addObject().put("name", "text").put("type", 3).put("value", text);
    return body.toString();
  }
}
