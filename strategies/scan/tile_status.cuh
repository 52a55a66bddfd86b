// The tile hand-out and tile status words of a one-pass decoupled look-back scan (decoupled_lookback_scan,
// lookback_scan_vectorized), spliced into the template's namespace by `// kopt:include tile_status.cuh`
// after kWarps and warp_inclusive.cuh; the template defines read_window() (declared below), its way of
// waiting for the tiles before its own.
// Tiles are handed out in launch order through a __device__ ticket counter, so every tile a block waits
// for belongs to a block that already runs. A status word is one 64-bit value (30-bit epoch, 2-bit flag,
// FP32 value) written and read whole with single volatile accesses, so a reader never sees a torn value
// and no fence is needed between a value and its flag. The epoch (the ticket counter's upper half,
// advanced by the block that draws the last ticket) marks which launch wrote a word, so the status array
// never needs clearing and every launch, graph replays included, starts clean.

constexpr long long kMaxTiles = 1 << 20;  // the launch constraint keeps the tile count within this
constexpr unsigned long long kFlagAggregate = 1ull;
constexpr unsigned long long kFlagInclusive = 2ull;
constexpr unsigned kEpochMask = 0x3fffffffu;

__device__ unsigned long long tile_status[kMaxTiles];  // zero at load: flag 0 = nothing published
__device__ unsigned long long ticket_counter = 0ull;   // epoch << 32 | tickets drawn in this launch

__device__ __forceinline__ unsigned long long make_status(unsigned epoch, unsigned long long flag,
                                                          float value) {
  return (static_cast<unsigned long long>(epoch) << 34) | (flag << 32) |
         static_cast<unsigned long long>(__float_as_uint(value));
}
__device__ __forceinline__ void store_status(long long tile, unsigned long long word) {
  *reinterpret_cast<volatile unsigned long long*>(&tile_status[tile]) = word;
}
__device__ __forceinline__ unsigned long long load_status(long long tile) {
  return *reinterpret_cast<volatile unsigned long long*>(&tile_status[tile]);
}

struct TileTicket {
  long long tile;  // the tile this block scans
  unsigned epoch;  // this launch's epoch
};

// Called by every thread of the block; `drawn` is a __shared__ word of the kernel.
__device__ __forceinline__ TileTicket draw_tile(unsigned long long& drawn) {
  if (threadIdx.x == 0) {
    unsigned long long const ticket = atomicAdd(&ticket_counter, 1ull);
    drawn = ticket;
    // The last ticket of this launch: back to ticket 0 of the next epoch.
    if (static_cast<unsigned>(ticket) == gridDim.x - 1u) atomicAdd(&ticket_counter, (1ull << 32) - gridDim.x);
  }
  __syncthreads();
  long long const tile = static_cast<long long>(static_cast<unsigned>(drawn));
  unsigned const epoch = static_cast<unsigned>(drawn >> 32) & kEpochMask;
  if (tile >= kMaxTiles) __trap();  // excluded by the launch constraint; never write past the status array
  return TileTicket{tile, epoch};
}

// The status word of tile `index` as seen by this launch; a tile before the first reads as an inclusive
// prefix of 0.
__device__ __forceinline__ unsigned long long window_status(long long index, unsigned epoch) {
  return index >= 0 ? load_status(index) : make_status(epoch, kFlagInclusive, 0.0f);
}
// A word's flag if this launch wrote it, else 0 (nothing published).
__device__ __forceinline__ unsigned status_flag(unsigned long long word, unsigned epoch) {
  return static_cast<unsigned>(word >> 34) == epoch ? static_cast<unsigned>((word >> 32) & 3ull) : 0u;
}

// The template's wait (warp 0, lane l reading tile index = base - l through window_status into `word`)
// until enough of the 32 tiles have published; returns the ballot of the lanes whose tile has published
// its inclusive prefix.
__device__ __forceinline__ unsigned read_window(long long index, unsigned epoch, unsigned long long& word);

// Warp 0: the sum of all tiles before `tile` (tile > 0): the values of the window's tiles up to the
// nearest one with an inclusive prefix, or of all 32 and on to the window before.
__device__ __forceinline__ float look_back(long long tile, unsigned epoch, int lane) {
  float prefix = 0.0f;
  long long base = tile - 1;
  while (true) {
    long long const index = base - lane;  // lane 0 is the nearest predecessor
    unsigned long long word = 0ull;
    unsigned const inclusive = read_window(index, epoch, word);
    int const stop = inclusive != 0u ? __ffs(static_cast<int>(inclusive)) - 1 : 31;
    float const value = lane <= stop ? __uint_as_float(static_cast<unsigned>(word)) : 0.0f;
    prefix += kopt_strategy::warp_sum(value);
    if (inclusive != 0u) return prefix;
    base -= 32;
  }
}

// Warp 0, once every warp has put its total in warp_totals[warp]: turns warp_totals into the warps'
// exclusive offsets within the tile, publishes the tile's aggregate, looks back and publishes the tile's
// inclusive prefix. Returns the sum of all tiles before this one.
__device__ __forceinline__ float scan_warp_totals_and_look_back(float* warp_totals, TileTicket ticket,
                                                                int lane) {
  float const total = lane < kWarps ? warp_totals[lane] : 0.0f;
  float const inclusive = warp_inclusive(total, lane);
  float const aggregate = __shfl_sync(0xffffffffu, inclusive, 31);
  float const exclusive = __shfl_up_sync(0xffffffffu, inclusive, 1);
  if (lane < kWarps) warp_totals[lane] = lane == 0 ? 0.0f : exclusive;  // own slot: read above
  float prefix = 0.0f;
  if (ticket.tile == 0) {
    if (lane == 0) store_status(0, make_status(ticket.epoch, kFlagInclusive, aggregate));
  } else {
    if (lane == 0) store_status(ticket.tile, make_status(ticket.epoch, kFlagAggregate, aggregate));
    prefix = look_back(ticket.tile, ticket.epoch, lane);
    if (lane == 0) store_status(ticket.tile, make_status(ticket.epoch, kFlagInclusive, prefix + aggregate));
  }
  return prefix;
}
