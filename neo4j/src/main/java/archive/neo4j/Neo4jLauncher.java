package archive.neo4j;

import java.nio.file.Path;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CountDownLatch;
import org.neo4j.configuration.GraphDatabaseSettings;
import org.neo4j.configuration.connectors.BoltConnector;
import org.neo4j.configuration.connectors.HttpConnector;
import org.neo4j.configuration.connectors.HttpsConnector;
import org.neo4j.configuration.helpers.SocketAddress;
import org.neo4j.dbms.api.DatabaseManagementService;
import org.neo4j.dbms.api.DatabaseManagementServiceBuilder;
import org.neo4j.graphdb.config.Setting;
import org.neo4j.graphdb.QueryExecutionException;
import org.neo4j.io.ByteUnit;

/**
 * A Neo4j Community server for development and tests: the embedded database management service
 * with its Bolt connector on 127.0.0.1 and nothing else listening, so that several can run on one
 * machine on different Bolt ports. Started and stopped by {@code scripts/neo4j.ts}, which passes
 * its settings in the environment:
 *
 * <ul>
 *   <li>{@code NEO4J_DATA_DIR}: the server's home (databases, transaction logs, debug log);
 *   <li>{@code NEO4J_BOLT_PORT}: the Bolt port;
 *   <li>{@code NEO4J_PASSWORD}: the password of the user {@code neo4j}, set at every start;
 *   <li>{@code NEO4J_PAGE_CACHE}: the page cache size, in mebibytes;
 *   <li>{@code NEO4J_TRANSACTION_MAX}, optional: the most memory one transaction may hold, in
 *       mebibytes (by default only the server's pool for all transactions bounds it);
 *   <li>{@code NEO4J_TX_STATE}, optional: {@code OFF_HEAP} (the default here) or {@code ON_HEAP},
 *       where transactions keep the changes they have not committed yet;
 *   <li>{@code NEO4J_TX_STATE_OFF_HEAP_MAX}, optional: the most off-heap memory the changes of all
 *       transactions may hold together, in mebibytes (Neo4j's default otherwise, 2 GiB);
 *   <li>{@code NEO4J_TRANSACTION_TOTAL_MAX}, optional: the most memory all transactions may hold
 *       together, heap and off-heap, in mebibytes (otherwise 70% of the heap, Neo4j's default, plus
 *       half the off-heap budget when transaction state is off the heap).
 * </ul>
 *
 * It prints {@code READY} once the password is set, and shuts the databases down cleanly on
 * SIGTERM or SIGINT.
 */
public final class Neo4jLauncher {
  private Neo4jLauncher() {}

  public static void main(String[] args) throws InterruptedException {
    Path home = Path.of(required("NEO4J_DATA_DIR")).toAbsolutePath();
    int port = Integer.parseInt(required("NEO4J_BOLT_PORT"));
    String password = required("NEO4J_PASSWORD");
    long pageCacheMiB = Long.parseLong(System.getenv().getOrDefault("NEO4J_PAGE_CACHE", "512"));

    DatabaseManagementServiceBuilder builder =
        new DatabaseManagementServiceBuilder(home)
            .setConfig(BoltConnector.enabled, true)
            .setConfig(BoltConnector.listen_address, new SocketAddress("127.0.0.1", port))
            .setConfig(BoltConnector.advertised_address, new SocketAddress("127.0.0.1", port))
            .setConfig(HttpConnector.enabled, false)
            .setConfig(HttpsConnector.enabled, false)
            .setConfig(GraphDatabaseSettings.auth_enabled, true)
            .setConfig(GraphDatabaseSettings.pagecache_memory, ByteUnit.mebiBytes(pageCacheMiB));
    setMebibytes(builder, GraphDatabaseSettings.memory_transaction_max_size, "NEO4J_TRANSACTION_MAX");
    // An import is one transaction: its changes off the heap leave the heap to queries and spare
    // the garbage collector from walking them until the commit.
    GraphDatabaseSettings.TransactionStateMemoryAllocation txState =
        GraphDatabaseSettings.TransactionStateMemoryAllocation.valueOf(
            System.getenv().getOrDefault("NEO4J_TX_STATE", "OFF_HEAP"));
    builder.setConfig(GraphDatabaseSettings.tx_state_memory_allocation, txState);
    long offHeapMax =
        setMebibytes(builder, GraphDatabaseSettings.tx_state_max_off_heap_memory, "NEO4J_TX_STATE_OFF_HEAP_MAX")
            .orElse(GraphDatabaseSettings.tx_state_max_off_heap_memory.defaultValue());
    long totalMax =
        setMebibytes(
                builder, GraphDatabaseSettings.memory_transaction_global_max_size, "NEO4J_TRANSACTION_TOTAL_MAX")
            .orElse(0L);
    if (totalMax == 0L && txState == GraphDatabaseSettings.TransactionStateMemoryAllocation.OFF_HEAP) {
      // Neo4j's pool counts the changes kept off the heap too, yet bounds them by 70% of the heap,
      // as if they were on it. Only part of a transaction's state goes off the heap (its
      // bookkeeping stays on it), so half the off-heap budget is added: what the pool lets a
      // transaction hold on the heap stays within the heap, and a refusal comes before the heap
      // runs out.
      builder.setConfig(
          GraphDatabaseSettings.memory_transaction_global_max_size,
          Runtime.getRuntime().maxMemory() * 7 / 10 + offHeapMax / 2);
    }
    DatabaseManagementService service = builder.build();
    CountDownLatch stopped = new CountDownLatch(1);
    Runtime.getRuntime()
        .addShutdownHook(
            new Thread(
                () -> {
                  service.shutdown();
                  stopped.countDown();
                }));

    setPassword(service, password);
    System.out.println("READY bolt://127.0.0.1:" + port);
    System.out.flush();
    stopped.await();
  }

  /**
   * Gives the user neo4j the password of this start: the first start replaces the built-in one
   * (which must be changed before use), a later one keeps or changes the one set before.
   */
  private static void setPassword(DatabaseManagementService service, String password) {
    try {
      service
          .database(GraphDatabaseSettings.SYSTEM_DATABASE_NAME)
          .executeTransactionally(
              "ALTER USER neo4j SET PASSWORD $password CHANGE NOT REQUIRED",
              Map.of("password", password));
    } catch (QueryExecutionException error) {
      // Neo4j refuses to "change" a password to the one it already has, which is what we want.
      if (!error.getMessage().contains("Old password and new password cannot be the same")) {
        throw error;
      }
    }
  }

  /**
   * Sets {@code setting} to the mebibytes of the environment variable {@code name}, when set; the
   * bytes set, if any.
   */
  private static Optional<Long> setMebibytes(
      DatabaseManagementServiceBuilder builder, Setting<Long> setting, String name) {
    String mebibytes = System.getenv(name);
    if (mebibytes == null || mebibytes.isBlank()) {
      return Optional.empty();
    }
    long bytes = ByteUnit.mebiBytes(Long.parseLong(mebibytes.trim()));
    builder.setConfig(setting, bytes);
    return Optional.of(bytes);
  }

  private static String required(String name) {
    String value = System.getenv(name);
    if (value == null || value.isBlank()) {
      throw new IllegalArgumentException(name + " is not set");
    }
    return value;
  }
}
