
ð/device:GPU:1*
core_count*memory_size*compute_cap_major*memory_bandwidth*device_vendor*
clock_rate*compute_cap_minor2*AMD2  –€2 °2	€€ ›¾M2	€€€øÿ2 	2 "tw003