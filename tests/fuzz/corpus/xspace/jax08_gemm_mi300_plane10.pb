
eTask Environment*profile_stop_time*profile_start_time2¼šñÆ¸›şÊ2€ß•Í¸›şÊ"tw003