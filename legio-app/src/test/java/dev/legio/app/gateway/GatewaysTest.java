package dev.legio.app.gateway;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class GatewaysTest {

  /** A gateway that records what happened to it, and can fail to start. */
  private static final class Recording implements Gateway {
    final String name;
    final boolean failsToStart;
    final List<String> events;

    Recording(String name, boolean failsToStart, List<String> events) {
      this.name = name;
      this.failsToStart = failsToStart;
      this.events = events;
    }

    @Override
    public String name() {
      return name;
    }

    @Override
    public void start() {
      events.add("start " + name);
      if (failsToStart) {
        throw new IllegalStateException("TELEGRAM_BOT_TOKEN is not set");
      }
    }

    @Override
    public GatewayHealth health() {
      return new GatewayHealth(name, GatewayHealth.State.CONNECTED, "", 3, 2);
    }

    @Override
    public void close() {
      events.add("close " + name);
      throw new IllegalStateException("close failed");
    }
  }

  @Test
  void oneGatewayFailingToStartLeavesTheOthersRunningAndSaysWhy() {
    List<String> events = new ArrayList<>();
    Gateways gateways =
        new Gateways(
            List.of(
                new Recording("telegram", true, events), new Recording("slack", false, events)));

    gateways.start();

    assertThat(events).containsExactly("start telegram", "start slack");
    assertThat(gateways.health())
        .containsExactly(
            new GatewayHealth(
                "telegram",
                GatewayHealth.State.FAILING,
                "could not start: TELEGRAM_BOT_TOKEN is not set",
                0,
                0),
            new GatewayHealth("slack", GatewayHealth.State.CONNECTED, "", 3, 2));
  }

  @Test
  void closingClosesEveryGatewayEvenWhenOneThrows() {
    List<String> events = new ArrayList<>();
    Gateways gateways =
        new Gateways(
            List.of(
                new Recording("slack", false, events), new Recording("discord", false, events)));

    gateways.close();

    assertThat(events).containsExactly("close slack", "close discord");
  }

  @Test
  void healthNamesItsStateInLowerCase() {
    assertThat(new GatewayHealth("discord", GatewayHealth.State.WAITING, null, 0, 0))
        .satisfies(
            h -> {
              assertThat(h.stateName()).isEqualTo("waiting");
              assertThat(h.detail()).isEmpty();
            });
  }
}
