<?xml version="1.0" encoding="UTF-8"?>
<tileset version="1.10" tiledversion="1.10.2" name="objects_flat" tilewidth="74" tileheight="64" tilecount="36" columns="8">
 <image source="../assets/tiles/objects_flat.png" width="592" height="320"/>
 <tile id="0" type="barrel">
  <properties>
   <property name="terrain" value="barrel"/>
   <property name="cover" type="string" propertytype="Cover" value="half"/>
   <property name="destructible" type="bool" value="true"/>
  </properties>
 </tile>
 <tile id="1" type="barrels">
  <properties>
   <property name="terrain" value="barrels"/>
   <property name="cover" type="string" propertytype="Cover" value="half"/>
   <property name="destructible" type="bool" value="true"/>
  </properties>
 </tile>
 <tile id="2" type="crates">
  <properties>
   <property name="terrain" value="crates"/>
   <property name="cover" type="string" propertytype="Cover" value="half"/>
   <property name="destructible" type="bool" value="true"/>
  </properties>
 </tile>
 <tile id="3" type="crate">
  <properties>
   <property name="terrain" value="crate"/>
   <property name="cover" type="string" propertytype="Cover" value="half"/>
   <property name="destructible" type="bool" value="true"/>
  </properties>
 </tile>
 <tile id="4" type="trough">
  <properties>
   <property name="terrain" value="water trough"/>
   <property name="cover" type="string" propertytype="Cover" value="half"/>
  </properties>
 </tile>
 <tile id="5" type="wagon">
  <properties>
   <property name="terrain" value="wagon"/>
   <property name="impassable" type="bool" value="true"/>
   <property name="blocks_sight" type="bool" value="true"/>
   <property name="cover" type="string" propertytype="Cover" value="full"/>
  </properties>
 </tile>
 <tile id="6" type="sandbags">
  <properties>
   <property name="terrain" value="sandbags"/>
   <property name="cover" type="string" propertytype="Cover" value="half"/>
  </properties>
 </tile>
 <tile id="7" type="rocks">
  <properties>
   <property name="terrain" value="rocks"/>
   <property name="cover" type="string" propertytype="Cover" value="half"/>
   <property name="move_cost" type="int" value="2"/>
  </properties>
 </tile>
 <tile id="8" type="boulder">
  <properties>
   <property name="terrain" value="boulder"/>
   <property name="impassable" type="bool" value="true"/>
   <property name="blocks_sight" type="bool" value="true"/>
   <property name="cover" type="string" propertytype="Cover" value="full"/>
  </properties>
 </tile>
 <tile id="9" type="cactus">
  <properties>
   <property name="terrain" value="cactus"/>
   <property name="cover" type="string" propertytype="Cover" value="half"/>
   <property name="move_cost" type="int" value="2"/>
  </properties>
 </tile>
 <tile id="10" type="haybale">
  <properties>
   <property name="terrain" value="hay bale"/>
   <property name="cover" type="string" propertytype="Cover" value="half"/>
   <property name="destructible" type="bool" value="true"/>
  </properties>
 </tile>
 <tile id="11" type="table">
  <properties>
   <property name="terrain" value="saloon table"/>
   <property name="cover" type="string" propertytype="Cover" value="half"/>
   <property name="destructible" type="bool" value="true"/>
  </properties>
 </tile>
 <tile id="12" type="bar">
  <properties>
   <property name="terrain" value="bar counter"/>
   <property name="cover" type="string" propertytype="Cover" value="half"/>
   <property name="move_cost" type="int" value="2"/>
  </properties>
 </tile>
 <tile id="13" type="piano">
  <properties>
   <property name="terrain" value="piano"/>
   <property name="impassable" type="bool" value="true"/>
   <property name="cover" type="string" propertytype="Cover" value="half"/>
  </properties>
 </tile>
 <tile id="14" type="safe">
  <properties>
   <property name="terrain" value="safe"/>
   <property name="impassable" type="bool" value="true"/>
   <property name="cover" type="string" propertytype="Cover" value="full"/>
  </properties>
 </tile>
 <tile id="15" type="pump">
  <properties>
   <property name="terrain" value="water pump"/>
   <property name="cover" type="string" propertytype="Cover" value="none"/>
  </properties>
 </tile>
 <tile id="16" type="fence_03">
  <properties>
   <property name="terrain" value="fence"/>
   <property name="cover" type="string" propertytype="Cover" value="half"/>
   <property name="move_cost" type="int" value="2"/>
   <property name="destructible" type="bool" value="true"/>
  </properties>
 </tile>
 <tile id="17" type="fence_14">
  <properties>
   <property name="terrain" value="fence"/>
   <property name="cover" type="string" propertytype="Cover" value="half"/>
   <property name="move_cost" type="int" value="2"/>
   <property name="destructible" type="bool" value="true"/>
  </properties>
 </tile>
 <tile id="18" type="fence_25">
  <properties>
   <property name="terrain" value="fence"/>
   <property name="cover" type="string" propertytype="Cover" value="half"/>
   <property name="move_cost" type="int" value="2"/>
   <property name="destructible" type="bool" value="true"/>
  </properties>
 </tile>
 <tile id="19" type="fence_02">
  <properties>
   <property name="terrain" value="fence"/>
   <property name="cover" type="string" propertytype="Cover" value="half"/>
   <property name="move_cost" type="int" value="2"/>
   <property name="destructible" type="bool" value="true"/>
  </properties>
 </tile>
 <tile id="20" type="fence_13">
  <properties>
   <property name="terrain" value="fence"/>
   <property name="cover" type="string" propertytype="Cover" value="half"/>
   <property name="move_cost" type="int" value="2"/>
   <property name="destructible" type="bool" value="true"/>
  </properties>
 </tile>
 <tile id="21" type="fence_24">
  <properties>
   <property name="terrain" value="fence"/>
   <property name="cover" type="string" propertytype="Cover" value="half"/>
   <property name="move_cost" type="int" value="2"/>
   <property name="destructible" type="bool" value="true"/>
  </properties>
 </tile>
 <tile id="22" type="fence_35">
  <properties>
   <property name="terrain" value="fence"/>
   <property name="cover" type="string" propertytype="Cover" value="half"/>
   <property name="move_cost" type="int" value="2"/>
   <property name="destructible" type="bool" value="true"/>
  </properties>
 </tile>
 <tile id="23" type="fence_04">
  <properties>
   <property name="terrain" value="fence"/>
   <property name="cover" type="string" propertytype="Cover" value="half"/>
   <property name="move_cost" type="int" value="2"/>
   <property name="destructible" type="bool" value="true"/>
  </properties>
 </tile>
 <tile id="24" type="fence_15">
  <properties>
   <property name="terrain" value="fence"/>
   <property name="cover" type="string" propertytype="Cover" value="half"/>
   <property name="move_cost" type="int" value="2"/>
   <property name="destructible" type="bool" value="true"/>
  </properties>
 </tile>
 <tile id="25" type="bars">
  <properties>
   <property name="terrain" value="jail bars"/>
   <property name="impassable" type="bool" value="true"/>
   <property name="cover" type="string" propertytype="Cover" value="half"/>
  </properties>
 </tile>
 <tile id="26" type="door_closed">
  <properties>
   <property name="terrain" value="doorway"/>
  </properties>
 </tile>
 <tile id="27" type="door_open">
  <properties>
   <property name="terrain" value="doorway"/>
  </properties>
 </tile>
 <tile id="28" type="boxcar_head">
  <properties>
   <property name="terrain" value="boxcar"/>
   <property name="impassable" type="bool" value="true"/>
   <property name="blocks_sight" type="bool" value="true"/>
   <property name="cover" type="string" propertytype="Cover" value="full"/>
  </properties>
 </tile>
 <tile id="29" type="boxcar_mid">
  <properties>
   <property name="terrain" value="boxcar"/>
   <property name="impassable" type="bool" value="true"/>
   <property name="blocks_sight" type="bool" value="true"/>
   <property name="cover" type="string" propertytype="Cover" value="full"/>
  </properties>
 </tile>
 <tile id="30" type="boxcar_tail">
  <properties>
   <property name="terrain" value="boxcar"/>
   <property name="impassable" type="bool" value="true"/>
   <property name="blocks_sight" type="bool" value="true"/>
   <property name="cover" type="string" propertytype="Cover" value="full"/>
  </properties>
 </tile>
 <tile id="31" type="tumbleweed">
  <properties>
   <property name="terrain" value="tumbleweed"/>
  </properties>
 </tile>
 <tile id="32" type="skull">
  <properties>
   <property name="terrain" value="cow skull"/>
  </properties>
 </tile>
 <tile id="33" type="wheel">
  <properties>
   <property name="terrain" value="wagon wheel"/>
  </properties>
 </tile>
 <tile id="34" type="tufts">
  <properties>
   <property name="terrain" value="grass tufts"/>
  </properties>
 </tile>
 <tile id="35" type="stones">
  <properties>
   <property name="terrain" value="stones"/>
  </properties>
 </tile>
</tileset>
