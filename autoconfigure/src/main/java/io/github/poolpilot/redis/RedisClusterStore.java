package io.github.poolpilot.redis;

import java.util.ArrayList;
import java.util.List;

import io.github.poolpilot.cluster.ClusterStore;
import io.github.poolpilot.cluster.InstanceEntry;

import org.springframework.data.redis.core.StringRedisTemplate;
import org.springframework.data.redis.core.script.RedisScript;

/**
 * A {@link ClusterStore} in Redis: one hash per group and pool, a field per instance
 * holding its demand, its lease and its heartbeat on Redis's own clock, so that the
 * instances' clocks need not agree. Each exchange is one Lua script, atomic in Redis.
 *
 * @author poolpilot authors
 */
public class RedisClusterStore implements ClusterStore {

	/**
	 * Prune the expired instances, tell whether this one's lease was still held, grant
	 * this one what the others' leases leave, record it as holding max(granted, held)
	 * with a heartbeat, and answer the granted lease, whether it was known, and the
	 * others' entries.
	 */
	private static final RedisScript<List> EXCHANGE = RedisScript.of("""
			local time = redis.call('TIME')
			local now = tonumber(time[1]) * 1000 + math.floor(tonumber(time[2]) / 1000)
			local id, ttl, limit = ARGV[1], tonumber(ARGV[5]), tonumber(ARGV[6])
			local entries = redis.call('HGETALL', KEYS[1])
			local others, known, answer = 0, '0', {}
			for i = 1, #entries, 2 do
			  local demand, needed, lease, beat = string.match(entries[i + 1], '^(%d+):(%d+):(%d+):(%d+)$')
			  local live = beat ~= nil and now - tonumber(beat) <= ttl
			  if not live then
			    redis.call('HDEL', KEYS[1], entries[i])
			  elseif entries[i] == id then
			    known = '1'
			  else
			    others = others + tonumber(lease)
			    table.insert(answer, entries[i])
			    table.insert(answer, entries[i + 1])
			  end
			end
			local granted = math.min(tonumber(ARGV[3]), math.max(0, limit - others))
			local held = math.max(granted, tonumber(ARGV[4]))
			redis.call('HSET', KEYS[1], id, ARGV[2] .. ':' .. held .. ':' .. now)
			redis.call('PEXPIRE', KEYS[1], ttl * 10)
			table.insert(answer, 1, known)
			table.insert(answer, 1, tostring(granted))
			return answer
			""", List.class);

	private final StringRedisTemplate redis;

	private final String keyPrefix;

	/**
	 * Create a store.
	 * @param redis the template over the application's Redis connection
	 * @param group the name of the instances that share their limits
	 */
	public RedisClusterStore(StringRedisTemplate redis, String group) {
		this.redis = redis;
		// A colon in the group would let "a:b" + "c" and "a" + "b:c" share a key.
		this.keyPrefix = "poolpilot:cluster:" + group.replace("%", "%25").replace(":", "%3A") + ":";
	}

	@Override
	public Exchange exchange(String pool, Publication publication) {
		List<?> answer = this.redis.execute(EXCHANGE, List.of(this.keyPrefix + pool), publication.instanceId(),
				publication.demand().threads() + ":" + publication.demand().needed(),
				String.valueOf(publication.request()), String.valueOf(publication.held()),
				String.valueOf(publication.ttlMillis()), String.valueOf(publication.limit()));
		if (answer == null || answer.size() < 2) {
			throw new IllegalStateException("Redis answered nothing to the cluster exchange of pool '" + pool + "'");
		}
		List<InstanceEntry> others = new ArrayList<>();
		for (int i = 2; i + 1 < answer.size(); i += 2) {
			String[] fields = String.valueOf(answer.get(i + 1)).split(":");
			others.add(new InstanceEntry(String.valueOf(answer.get(i)), Integer.parseInt(fields[0]),
					Integer.parseInt(fields[1]), Integer.parseInt(fields[2]), Long.parseLong(fields[3])));
		}
		return new Exchange(Integer.parseInt(String.valueOf(answer.get(0))), others,
				"1".equals(String.valueOf(answer.get(1))));
	}

	@Override
	public void release(String pool, String instanceId) {
		this.redis.opsForHash().delete(this.keyPrefix + pool, instanceId);
	}

}
